import { z } from 'zod';
import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import type { BuiltInProcessorPlugin } from '../processor-plugin';
import { simulate } from './simulator-bank';
import { processorManifest, SIMULATOR_CHALLENGE } from '@vaultline/contracts';
import manifest from './manifest.json';
import {
  fromSimulatorAuthorizationResponse,
  fromSimulatorResponse,
  fromSimulatorStepResponse,
  toSimulatorRequest,
  toSimulatorResumeRequest,
  type SimulatorAccount,
} from './simulator.mapper';
import type { ProcessorAccountSettings } from '../../domain/processor-accounts/processor-account';

const optionsSchema = z.object({
  /** How long a capture stays pending, so `capturing` (or processing with a capture under way) is observable. */
  capture_delay_ms: z.number().int().min(0).max(600_000).default(200),
  /** How long a refund stays pending before it settles (so `pending` is observable). */
  refund_delay_ms: z.number().int().min(0).max(600_000).default(200),
});

export type SimulatorOptions = z.infer<typeof optionsSchema>;

const capabilities = {
  authorize: true,
  capture: true,
  partialCapture: true,
  multipleCaptures: true,
  authentication3ri: true,
  authentication3ds: true,
  risk: true,
  explicitUnscheduledMit: true,
  modes: ['test'],
} as const;

/** The connection the simulator opens, which can also answer as one of the merchant's simulator accounts. */
interface SimulatorConnection extends ProcessorConnection {
  asAccount(account: SimulatorAccount): ProcessorConnection;
}

/** A simulator account's behaviour from its settings: approval_rate (default 1, every ordinary card approved), outage windows, the draw's seed. */
function simulatorAccountOf(id: string, settings: ProcessorAccountSettings): SimulatorAccount {
  return {
    id,
    approval_rate: settings.approval_rate ?? 1,
    outages: (settings.outage ?? []).map((window) => ({ from: window.from, to: window.to })),
    ...(settings.seed ? { seed: settings.seed } : {}),
  };
}

/** Built in and deterministic, so every path runs without a network: opened once at start; its accounts share the connection. */
export const simulator: BuiltInProcessorPlugin<SimulatorOptions> = {
  manifest: processorManifest(manifest),
  opens: 'at_start',
  capabilities,
  // Nothing to authenticate with, no host.
  credentials: z.object({}).strict(),
  // approval_rate and outage make two simulator accounts differ (routing in test mode); seed makes their draws repeat across runs.
  extraSettings: { approval_rate: 1, outage: [], seed: null },
  optionsSchema,
  forAccount: (connection, settings, account) => {
    // Rule 7 of the earlier interface needs a processor without explicit unscheduled support: an account can be one.
    const asAccount = 'asAccount' in connection ? (connection as SimulatorConnection).asAccount(simulatorAccountOf(account.id, settings)) : connection;
    return settings.explicit_unscheduled === false ? { ...asAccount, capabilities: { ...asAccount.capabilities, explicitUnscheduledMit: false } } : asAccount;
  },
  open(options): SimulatorConnection {
    return { ...connectionOf(options), asAccount: (account) => connectionOf(options, account) };
  },
};

function connectionOf(options: SimulatorOptions, account?: SimulatorAccount): ProcessorConnection {
  const request = (payment: Parameters<typeof toSimulatorRequest>[0], operation: Parameters<typeof toSimulatorRequest>[1]) =>
    toSimulatorRequest(payment, operation, account);
  const step = (operation: Parameters<typeof toSimulatorRequest>[1]) => async (payment: Parameters<typeof toSimulatorRequest>[0]) =>
    fromSimulatorStepResponse(simulate(request(payment, operation), options.capture_delay_ms));
  return {
    id: 'simulator',
    capabilities,
    assessRisk: step('risk'),
    authenticate3ri: step('authentication_3ri'),
    authorize: async (payment) => fromSimulatorAuthorizationResponse(simulate(request(payment, 'authorization'), options.capture_delay_ms)),
    // Deterministic like the rest: the consumer's choice on the challenge page is the return parameter.
    resumeAuthorization: async (payment, returned) =>
      fromSimulatorAuthorizationResponse(
        simulate(toSimulatorResumeRequest(payment, returned, SIMULATOR_CHALLENGE.parameter, account), options.capture_delay_ms),
      ),
    capture: async (payment) => fromSimulatorResponse(simulate(request(payment, 'capture'), options.capture_delay_ms)),
    captureStatus: async (payment) => fromSimulatorResponse(simulate(request(payment, 'capture_status'), options.capture_delay_ms)),
    // A void is confirmed in its answer: a canceled payment never shows canceling here.
    voidAuthorization: step('void'),
    refund: async (payment) => fromSimulatorResponse(simulate(request(payment, 'refund'), options.capture_delay_ms, options.refund_delay_ms)),
    refundStatus: async (payment) => fromSimulatorResponse(simulate(request(payment, 'refund_status'), options.capture_delay_ms, options.refund_delay_ms)),
    // The simulator's disputes (its disputed test card, POST /payments/{id}/test/dispute) take every answer.
    acceptDispute: async () => ({ status: 'succeeded' }),
    submitDisputeEvidence: async () => ({ status: 'succeeded' }),
  };
}

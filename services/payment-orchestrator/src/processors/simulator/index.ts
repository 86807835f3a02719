import { z } from 'zod';
import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import type { BuiltInProcessorPlugin } from '../processor-plugin';
import { simulate } from './simulator-bank';
import { processorManifest, SIMULATOR_CHALLENGE } from '@vaultline/contracts';
import manifest from './manifest.json';
import { fromSimulatorAuthorizationResponse, fromSimulatorResponse, fromSimulatorStepResponse, toSimulatorRequest, toSimulatorResumeRequest } from './simulator.mapper';

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

/** Built in and deterministic, so every path runs without a network: opened once at start; its accounts share the connection. */
export const simulator: BuiltInProcessorPlugin<SimulatorOptions> = {
  manifest: processorManifest(manifest),
  opens: 'at_start',
  capabilities,
  // Nothing to authenticate with, no host.
  credentials: z.object({}).strict(),
  optionsSchema,
  // Rule 7 of the earlier interface needs a processor without explicit unscheduled support: an account can be one.
  forAccount: (connection, settings) => (settings.explicit_unscheduled === false ? { ...connection, capabilities: { ...connection.capabilities, explicitUnscheduledMit: false } } : connection),
  open(options): ProcessorConnection {
    const step = (operation: Parameters<typeof toSimulatorRequest>[1]) => async (payment: Parameters<typeof toSimulatorRequest>[0]) =>
      fromSimulatorStepResponse(simulate(toSimulatorRequest(payment, operation), options.capture_delay_ms));
    return {
      id: 'simulator',
      capabilities,
      assessRisk: step('risk'),
      authenticate3ri: step('authentication_3ri'),
      authorize: async (payment) => fromSimulatorAuthorizationResponse(simulate(toSimulatorRequest(payment, 'authorization'), options.capture_delay_ms)),
      // Deterministic like the rest: the consumer's choice on the challenge page is the return parameter.
      resumeAuthorization: async (payment, returned) =>
        fromSimulatorAuthorizationResponse(simulate(toSimulatorResumeRequest(payment, returned, SIMULATOR_CHALLENGE.parameter), options.capture_delay_ms)),
      capture: async (payment) => fromSimulatorResponse(simulate(toSimulatorRequest(payment, 'capture'), options.capture_delay_ms)),
      captureStatus: async (payment) => fromSimulatorResponse(simulate(toSimulatorRequest(payment, 'capture_status'), options.capture_delay_ms)),
      // A void is confirmed in its answer: a canceled payment never shows canceling here.
      voidAuthorization: step('void'),
      refund: async (payment) => fromSimulatorResponse(simulate(toSimulatorRequest(payment, 'refund'), options.capture_delay_ms, options.refund_delay_ms)),
      refundStatus: async (payment) => fromSimulatorResponse(simulate(toSimulatorRequest(payment, 'refund_status'), options.capture_delay_ms, options.refund_delay_ms)),
      // The simulator's disputes (its disputed test card, POST /payments/{id}/test/dispute) take every answer.
      acceptDispute: async () => ({ status: 'succeeded' }),
      submitDisputeEvidence: async () => ({ status: 'succeeded' }),
    };
  },
};

import type { CaptureOutcome, RefundOutcome, ProcessorConnection, ProcessorDirectory, Processors } from '../domain/processing/processor-port';
import type { Clock } from '@vaultline/core';
import type { ProcessorAmounts } from '../domain/processing/processor-amounts';
import type { ProcessorAccountRepository, ProcessorNotificationRepository, SecretSealer } from '../domain/processor-accounts/processor-account-ports';
import { openCredentials } from '../domain/processor-accounts/manage-processor-accounts';
import type { ProcessorPlugins } from './processor-plugin';
import type { ProcessorTransport } from './processor-transport';

export interface ProcessorDirectoryDeps {
  plugins: ProcessorPlugins;
  builtIn: Processors;
  accounts: ProcessorAccountRepository;
  notifications: ProcessorNotificationRepository;
  sealer: SecretSealer;
  transport: ProcessorTransport;
  clock: Clock;
  maxAccountsPerMerchant: number;
}

/**
 * The merchant's processors: the built-in ones by their id, and each processor account by its id, opened
 * by its plugin with its credentials for the key mode. An account at a processor opened at start (the
 * simulator) is that connection under the account's id, adapted to the account's settings. An account
 * that cannot serve the mode (a live account missing what its live host needs) or whose processor is no
 * longer registered is absent, which the engine answers as processor_unavailable.
 */
export function processorDirectory(deps: ProcessorDirectoryDeps): ProcessorDirectory {
  return async (scope, mode) => {
    const opened = new Map<string, ProcessorConnection>();
    for (const account of await deps.accounts.list(scope, deps.maxAccountsPerMerchant)) {
      const plugin = deps.plugins[account.processor];
      if (!plugin) continue;
      if (plugin.opens === 'at_start') {
        const connection = deps.builtIn.get(plugin.id);
        if (connection) opened.set(account.id, withAmounts(plugin.forAccount ? plugin.forAccount(connection, account.settings, { id: account.id }) : connection, plugin.amounts));
        continue;
      }
      try {
        const { base_url, explicit_unscheduled: _builtInOnly, ...settings } = account.settings;
        const options = plugin.optionsSchema.parse({ credentials: openCredentials(deps.sealer, account), base_url, mode, settings });
        const captureSettlement = async (reference: string): Promise<CaptureOutcome | null> => {
          const event = await deps.notifications.findCaptureEvent(scope, account.id, reference);
          if (!event) return null;
          return event.kind === 'capture_succeeded'
            ? { status: 'succeeded', processor_reference: event.capture_reference ?? reference }
            : { status: 'failed', failure_reason: event.failure_reason ?? 'capture_failed', processor_reference: event.capture_reference ?? reference };
        };
        const refundSettlement = async (reference: string): Promise<RefundOutcome | null> => {
          // A failure (declined, or reversed after a success) outweighs a success of the same refund.
          const event = await deps.notifications.findActionEvent(scope, account.id, reference, ['refund_failed', 'refund_succeeded']);
          if (!event) return null;
          return event.kind === 'refund_succeeded' ? { status: 'succeeded', processor_reference: reference } : { status: 'failed', failure_reason: event.failure_reason ?? 'refund_failed', processor_reference: reference };
        };
        opened.set(account.id, withAmounts(plugin.open(options, { clock: deps.clock, transport: deps.transport, captureSettlement, refundSettlement }), plugin.amounts));
      } catch {
        // Never log or rethrow: the error could quote the credentials.
      }
    }
    const ids = [...deps.builtIn.ids(), ...opened.keys()];
    return { get: (id) => deps.builtIn.get(id) ?? opened.get(id), ids: () => ids };
  };
}

/** The connection with its plugin's amounts, so the engine checks an amount against them before sending it. */
export function withAmounts(connection: ProcessorConnection, amounts: ProcessorAmounts | undefined): ProcessorConnection {
  // A copy that keeps the connection's prototype: a plugin may open a class instance, whose methods a spread would drop.
  return amounts && !connection.amounts ? Object.assign(Object.create(Object.getPrototypeOf(connection) as object) as ProcessorConnection, connection, { amounts }) : connection;
}

import type { CaptureOutcome, RefundOutcome, Clock, ProcessorAccountRepository, ProcessorConnection, ProcessorDirectory, ProcessorNotificationRepository, Processors, SecretSealer } from '../domain/ports';
import { openCredentials } from '../domain/manage-processor-accounts';
import type { ProcessorPlugin } from './processor-plugin';
import type { ProcessorTransport } from './processor-transport';
import { adyen } from './adyen';
import { checkout } from './checkout';

/** Plugins opened per processor account (a folder each, a line here). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const accountPlugins: Record<'adyen' | 'checkout', ProcessorPlugin<any>> = { adyen, checkout };

export interface ProcessorDirectoryDeps {
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
 * with its credentials for the key mode. A `simulator` account is the built-in simulator under the
 * account's id. An account that cannot serve the mode (an Adyen account without live_url_prefix in live
 * mode) is absent, which the engine answers as processor_unavailable.
 */
export function processorDirectory(deps: ProcessorDirectoryDeps): ProcessorDirectory {
  return async (scope, mode) => {
    const opened = new Map<string, ProcessorConnection>();
    for (const account of await deps.accounts.list(scope, deps.maxAccountsPerMerchant)) {
      if (account.processor === 'simulator') {
        const simulator = deps.builtIn.get('simulator');
        // Rule 7 of the earlier interface needs a processor without explicit unscheduled support: the account can be one.
        if (simulator) opened.set(account.id, account.settings.explicit_unscheduled === false ? { ...simulator, capabilities: { ...simulator.capabilities, explicitUnscheduledMit: false } } : simulator);
        continue;
      }
      const plugin = accountPlugins[account.processor];
      try {
        const options = plugin.optionsSchema.parse({ credentials: openCredentials(deps.sealer, account), base_url: account.settings.base_url, mode });
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
        opened.set(account.id, plugin.open(options, { clock: deps.clock, transport: deps.transport, captureSettlement, refundSettlement }));
      } catch {
        // Never log or rethrow: the error could quote the credentials.
      }
    }
    const ids = [...deps.builtIn.ids(), ...opened.keys()];
    return { get: (id) => deps.builtIn.get(id) ?? opened.get(id), ids: () => ids };
  };
}

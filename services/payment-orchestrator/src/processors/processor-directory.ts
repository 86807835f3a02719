import type {
  CaptureOutcome,
  NotifiedEvent,
  RefundOutcome,
  ProcessorConnection,
  ProcessorDirectory,
  Processors,
} from '../domain/processor-port/processor-port';
import type { Clock, Scope } from '@vaultline/core';
import type { ProcessorAmounts } from '../domain/processor-port/processor-amounts';
import type { ProcessorAccountRepository, SecretSealer } from '../domain/processor-accounts/processor-account-ports';
import type { ProcessorNotificationRepository } from '../domain/processor-port/processor-notification-ports';
import { openCredentials } from '../domain/processor-accounts/manage-processor-accounts';
import type { ProcessorAccount } from '../domain/processor-accounts/processor-account';
import type { ProcessorContext, ProcessorPlugins } from './processor-plugin';
import type { ProcessorTransport } from './transport-port';

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
 * by its plugin with its credentials for the key mode. An account is opened (its credentials decrypted)
 * only when the engine asks for it, once per directory: a payment's step opens the account it uses, not
 * every account of the merchant. An account at a processor opened at start (the simulator) is that
 * connection under the account's id, adapted to the account's settings. An account that cannot serve the
 * mode (a live account missing what its live host needs) or whose processor is no longer registered is
 * absent, which the engine answers as processor_unavailable.
 */
export function processorDirectory(deps: ProcessorDirectoryDeps): ProcessorDirectory {
  return async (scope, mode, notified) => {
    const accounts = new Map(
      (await deps.accounts.list(scope, deps.maxAccountsPerMerchant))
        .filter((account) => deps.plugins[account.processor])
        .map((account) => [account.id, account]),
    );
    const opened = new Map<string, ProcessorConnection | undefined>();
    const open = (account: ProcessorAccount): ProcessorConnection | undefined => {
      const plugin = deps.plugins[account.processor]!;
      if (plugin.opens === 'at_start') {
        const connection = deps.builtIn.get(plugin.manifest.id);
        return connection && withAmounts(plugin.forAccount ? plugin.forAccount(connection, account.settings, { id: account.id }) : connection, plugin.amounts);
      }
      try {
        const { base_url, explicit_unscheduled: _builtInOnly, ...settings } = account.settings;
        const options = plugin.optionsSchema.parse({ credentials: openCredentials(deps.sealer, account), base_url, mode, settings });
        return withAmounts(
          plugin.open(options, { clock: deps.clock, transport: deps.transport, ...settlementsOf(deps, scope, account.id, notified) }),
          plugin.amounts,
        );
      } catch {
        // Never log or rethrow: the error could quote the credentials.
        return undefined;
      }
    };
    const ids = [...deps.builtIn.ids(), ...accounts.keys()];
    return {
      get(id) {
        const builtIn = deps.builtIn.get(id);
        if (builtIn) return builtIn;
        const account = accounts.get(id);
        if (!account) return undefined;
        if (!opened.has(id)) opened.set(id, open(account));
        return opened.get(id);
      },
      ids: () => ids,
    };
  };
}

/**
 * How an account's captures and refunds settled, by its processor's notifications (null while none arrived):
 * the one handed over with the directory when it names this account and the reference (it was just verified
 * and recorded), else the recorded ones.
 */
function settlementsOf(
  deps: ProcessorDirectoryDeps,
  scope: Scope,
  accountId: string,
  notified: NotifiedEvent | undefined,
): Pick<ProcessorContext, 'captureSettlement' | 'refundSettlement'> {
  const handed = (kinds: readonly string[], matches: (event: NotifiedEvent) => boolean) =>
    notified && notified.account_id === accountId && kinds.includes(notified.kind) && matches(notified) ? notified : null;
  return {
    async captureSettlement(reference): Promise<CaptureOutcome | null> {
      const event =
        handed(
          ['capture_succeeded', 'capture_failed'],
          (candidate) => candidate.capture_reference === reference || candidate.processor_reference === reference,
        ) ?? (await deps.notifications.findCaptureEvent(scope, accountId, reference));
      if (!event) return null;
      return event.kind === 'capture_succeeded'
        ? { status: 'succeeded', processor_reference: event.capture_reference ?? reference }
        : { status: 'failed', failure_reason: event.failure_reason ?? 'capture_failed', processor_reference: event.capture_reference ?? reference };
    },
    async refundSettlement(reference): Promise<RefundOutcome | null> {
      // A failure (declined, or reversed after a success) outweighs a success of the same refund.
      const event =
        handed(['refund_failed', 'refund_succeeded'], (candidate) => candidate.capture_reference === reference) ??
        (await deps.notifications.findActionEvent(scope, accountId, reference, ['refund_failed', 'refund_succeeded']));
      if (!event) return null;
      return event.kind === 'refund_succeeded'
        ? { status: 'succeeded', processor_reference: reference }
        : { status: 'failed', failure_reason: event.failure_reason ?? 'refund_failed', processor_reference: reference };
    },
  };
}

/** The connection with its plugin's amounts, so the engine checks an amount against them before sending it. */
export function withAmounts(connection: ProcessorConnection, amounts: ProcessorAmounts | undefined): ProcessorConnection {
  // A copy that keeps the connection's prototype: a plugin may open a class instance, whose methods a spread would drop.
  return amounts && !connection.amounts
    ? Object.assign(Object.create(Object.getPrototypeOf(connection) as object) as ProcessorConnection, connection, { amounts })
    : connection;
}

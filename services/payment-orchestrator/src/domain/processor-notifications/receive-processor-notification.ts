import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import { AppError, isUuid, newId, type Scope, scopeOfDocument } from '@vaultline/core';
import type { TokenBucket, TtlStore } from '@vaultline/ttl';
import { openCredentials } from '../processor-accounts/manage-processor-accounts';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from '../payment/payment-ports';
import type { ProcessorAccountRepository, SecretSealer } from '../processor-accounts/processor-account-ports';
import type { ProcessorNotificationRepository } from '../processor-port/processor-notification-ports';
import type { TransactionRunner } from '@vaultline/store';
import { ProcessorAccountNotFound, type ProcessorAccount } from '../processor-accounts/processor-account';
import type { ProcessorNotificationRecord } from '../processor-port/processor-notification';
import type { VoidStrayAuthorization } from '../payment/void-stray-authorization';
import type { NotifiedAuthentication } from '../payment/notified-authentication';
import type { DisputeSignal } from '../disputes/dispute';
import type { RecordDispute } from '../disputes/record-dispute';
import type { EarlyFraudWarningSignal } from '../fraud-warnings/early-fraud-warning';
import type { RecordEarlyFraudWarning } from '../fraud-warnings/record-early-fraud-warning';
import type { SettleLateCapture } from '../payment/settle-late-capture';

/** A notification's verdict per item, as the processor plugin gives it (verification and mapping are the plugin's). */
export interface VerifiedEvent {
  kind: string;
  dedupe_key: string;
  payment_reference?: string;
  processor_reference?: string;
  capture_reference?: string | null;
  failure_reason?: string;
  /** A chargeback notification: what it says about the dispute (kind `dispute`). */
  dispute?: DisputeSignal;
  /** An issuer's fraud report (kind `early_fraud_warning`): never a dispute. */
  early_fraud_warning?: EarlyFraudWarningSignal;
}

export type VerifiedItem = { verified: true; event: VerifiedEvent } | { verified: false; event_name: string; processor_reference: string | null };

/**
 * The plugin's side: parses the body and verifies each item with the account's credentials (`now` for
 * signatures that carry a timestamp); null when the body is not a notification.
 */
export type NotificationVerifier = (credentials: unknown, rawBody: Buffer, headers: Record<string, string | undefined>, now: Date) => VerifiedItem[] | null;

/** The verifier of a processor by its id; undefined for a processor that does not notify (or is not registered). */
export type NotificationVerifiers = (processor: string) => NotificationVerifier | undefined;

/** How much the public notification routes take: items per body, and requests per sender address and per account. */
export interface NotificationLimits {
  /** Items one body may carry; more → 413 (Adyen batches a handful; an attacker's body of thousands is refused whole). */
  maxItems: number;
  perAddress: TokenBucket;
  perAccount: TokenBucket;
}

/** What was refused and not stored, for the operator: counted and logged once per request (never a row per item). */
export type NotificationRejections = (refusal: {
  processor: string;
  reason: 'invalid_signature' | 'too_many_items' | 'rate_limited';
  items: number;
  accountId: string | null;
  clientAddress: string;
}) => void;

export interface ReceiveNotificationPorts {
  accounts: ProcessorAccountRepository;
  notifications: ProcessorNotificationRepository;
  sealer: SecretSealer;
  transaction: TransactionRunner;
  clock: Clock;
  /** Token buckets of the rate limits (the runtime's TTL store: shared by every instance in the local and production profiles). */
  buckets: Pick<TtlStore, 'takeToken'>;
  limits: NotificationLimits;
  rejections: NotificationRejections;
  /** Looks at the payment a recorded capture event names again now: its capture settles through the runner, the event handed to it. */
  wake: (scope: Scope, paymentId: string, notified: Omit<ProcessorNotificationRecord, 'version'>) => Promise<void>;
  /** A successful authorization the payment does not use is voided at its account (a late answer after a fallback). */
  voidStray: VoidStrayAuthorization;
  /** An authorization decided while the payment waits for its consumer (3-D Secure) counts as the consumer's return. */
  notifiedAuthentication?: NotifiedAuthentication;
  /** A capture success naming a payment that failed at capture (a processor's own recapture) moves it on. */
  settleLateCapture?: SettleLateCapture;
  /** A chargeback notification: recorded with the dispute it opens or moves, in one commit (a redelivery changes nothing). */
  recordDispute?: RecordDispute;
  /** An issuer's fraud report: recorded with the early fraud warning it opens or moves, in one commit. */
  recordEarlyFraudWarning?: RecordEarlyFraudWarning;
  /** A refund or void event (refund_*, void_*), recorded: the refund or canceling payment it names moves now (after-sale.ts). */
  afterSale?: (scope: Scope, accountId: string, record: Omit<ProcessorNotificationRecord, 'version'>) => Promise<void>;
}

export interface NotificationReceipt {
  accepted: number;
  duplicates: number;
  refused: number;
  /** The body was not a notification of this processor. */
  malformed: boolean;
}

export interface ProcessorNotificationRequest {
  /** The processor's id from the path (a registered plugin that notifies, else 404). */
  processor: string;
  accountId: string;
  rawBody: Buffer;
  headers: Record<string, string | undefined>;
  /** The sender's address (the gateway's X-Forwarded-For), for its rate limit. */
  clientAddress: string;
}

export type ReceiveProcessorNotification = (request: ProcessorNotificationRequest) => Promise<NotificationReceipt>;

/** The sender or the account went over its rate limit: the processor delivers the notification again later. */
export class NotificationsRateLimited extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 429, `Too many notifications: retry after ${retryAfterSeconds} s.`, { retry_after: retryAfterSeconds }, true);
  }
}

class TooManyNotificationItems extends AppError {
  constructor(limit: number) {
    super('too_many_notification_items', 413, `A notification body carries at most ${limit} items; nothing of this one was recorded.`, {
      field: 'notificationItems',
    });
  }
}

/**
 * Records what a processor notified, for the account named in the URL (notifications carry no API key:
 * the signature with the account's own key is the authentication). The route is public, so before any
 * store write: the sender's address and then the account have a rate limit (the address first: a
 * blocked sender creates no bucket per account id it makes up), and a body of more than `maxItems` items
 * is refused whole. A verified item is recorded once per event (a redelivery hits the unique dedupe key
 * and changes nothing); an item whose signature does not verify is not stored at all — it is counted and
 * logged once per request, so forged bodies cannot fill the store.
 */
export function receiveProcessorNotification(ports: ReceiveNotificationPorts, verifiers: NotificationVerifiers): ReceiveProcessorNotification {
  const { limits, rejections } = ports;
  const limit = async (key: string, bucket: TokenBucket, refusal: () => void): Promise<void> => {
    const taken = await ports.buckets.takeToken(key, { ratePerSecond: bucket.ratePerSecond, burst: bucket.burst });
    if (taken.allowed) return;
    refusal();
    // Whole seconds, rounded up: a sender that obeys Retry-After is not refused again.
    throw new NotificationsRateLimited(Math.max(1, Math.ceil(taken.retryAfterMs / 1000)));
  };
  return async ({ processor, accountId, rawBody, headers, clientAddress }) => {
    const refused = (reason: Parameters<NotificationRejections>[0]['reason'], items: number, account: string | null) =>
      rejections({ processor, reason, items, accountId: account, clientAddress });
    await limit(`processor-notifications:address:${clientAddress}`, limits.perAddress, () => refused('rate_limited', 1, null));
    const verify = verifiers(processor);
    const account: ProcessorAccount | null = verify ? await ports.accounts.getGlobal(accountId) : null;
    if (!verify || !account || account.processor !== processor) throw new ProcessorAccountNotFound();
    await limit(`processor-notifications:account:${account.id}`, limits.perAccount, () => refused('rate_limited', 1, account.id));
    const items = verify(openCredentials(ports.sealer, account), rawBody, headers, ports.clock.now());
    if (items && items.length > limits.maxItems) {
      refused('too_many_items', 1, account.id);
      throw new TooManyNotificationItems(limits.maxItems);
    }
    const receipt: NotificationReceipt = { accepted: 0, duplicates: 0, refused: 0, malformed: items === null };
    const now = ports.clock.now().toISOString();
    for (const item of items ?? []) {
      if (!item.verified) {
        receipt.refused += 1;
        continue;
      }
      const record: Omit<ProcessorNotificationRecord, 'version'> = {
        id: newId(),
        merchant_id: account.merchant_id,
        mode: account.mode,
        account_id: account.id,
        processor,
        received_at: now,
        status: 'accepted',
        dedupe_key: item.event.dedupe_key,
        kind: item.event.kind,
        payment_reference: item.event.payment_reference ?? null,
        processor_reference: item.event.processor_reference ?? null,
        capture_reference: item.event.capture_reference ?? null,
        failure_reason: item.event.failure_reason ?? null,
        refusal: null,
      };
      try {
        const { dispute, early_fraud_warning: warning } = item.event;
        if (dispute && ports.recordDispute) await ports.recordDispute(account, record, dispute);
        else if (warning && ports.recordEarlyFraudWarning) await ports.recordEarlyFraudWarning(account, record, warning);
        else await ports.transaction((uow) => ports.notifications.insert(uow, record));
        receipt.accepted += 1;
        if ((record.kind === 'capture_succeeded' || record.kind === 'capture_failed') && record.payment_reference && isUuid(record.payment_reference)) {
          await ports.wake(scopeOfDocument(account), record.payment_reference, record);
        }
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        receipt.duplicates += 1;
      }
      // Also on a redelivery (the first delivery may have lost a race): it moves a payment only once.
      if (record.kind === 'capture_succeeded' && record.payment_reference && isUuid(record.payment_reference)) {
        await ports.settleLateCapture?.(scopeOfDocument(account), account.id, record);
      }
      // Also on a redelivery (idempotent): a refund or void the first delivery could not settle (an error answered, so the processor sent it again).
      if (/^(refund|void)_/.test(record.kind)) await ports.afterSale?.(scopeOfDocument(account), account.id, record);
      // Also on a redelivery: the processor decided while the consumer is away authenticating (recorded once).
      if (
        (record.kind === 'authorization_succeeded' || record.kind === 'authorization_failed') &&
        record.payment_reference &&
        isUuid(record.payment_reference) &&
        record.processor_reference
      ) {
        await ports.notifiedAuthentication?.(scopeOfDocument(account), account.id, record.payment_reference, record.processor_reference);
      }
      // Also on a redelivery: a void that could not be sent the first time is tried again (it is idempotent).
      if (record.kind === 'authorization_succeeded' && record.payment_reference && isUuid(record.payment_reference) && record.processor_reference) {
        await ports.voidStray(scopeOfDocument(account), account.id, record.payment_reference, record.processor_reference);
      }
    }
    if (receipt.refused > 0) refused('invalid_signature', receipt.refused, account.id);
    return receipt;
  };
}

/**
 * A payment whose capture waits for the processor's notification is looked at again now: the runner
 * asks the processor connection, which finds the recorded event, and the move commits as every other
 * (compare-and-set, its transaction, its event). Anything else (an unknown payment, one already settled)
 * is left alone, so a late or repeated notification changes nothing.
 */
export function wakePayment({
  payments,
  transaction,
  clock,
}: {
  payments: PaymentRepository;
  transaction: TransactionRunner;
  clock: Clock;
}): (scope: Scope, paymentId: string) => Promise<boolean> {
  return async (scope, paymentId) => {
    const payment = await payments.get(scope, paymentId);
    if (!payment?.progress.capture || payment.next_run_at === null) return false;
    const now = clock.now();
    if (Date.parse(payment.next_run_at) <= now.getTime()) return true;
    try {
      await transaction((uow) => payments.update(uow, { ...payment, next_run_at: now.toISOString() }));
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
    return true;
  };
}

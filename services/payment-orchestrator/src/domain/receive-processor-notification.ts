import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import { isUuid, newId } from '@vaultline/core';
import { openCredentials } from './manage-processor-accounts';
import type { Clock, PaymentRepository, ProcessorAccountRepository, ProcessorNotificationRepository, SecretSealer, TransactionRunner } from './ports';
import { ProcessorAccountNotFound, type ProcessorAccount } from './processor-accounts/processor-account';
import type { ProcessorNotificationRecord } from './processor-accounts/processor-notification';
import type { VoidStrayAuthorization } from './void-stray-authorization';

/** A notification's verdict per item, as the processor plugin gives it (verification and mapping are the plugin's). */
export type VerifiedItem =
  | { verified: true; event: { kind: string; dedupe_key: string; payment_reference?: string; processor_reference?: string; capture_reference?: string | null; failure_reason?: string } }
  | { verified: false; event_name: string; processor_reference: string | null };

/** The plugin's side: parses the body and verifies each item with the account's credentials; null when the body is not a notification. */
export type NotificationVerifier = (credentials: unknown, rawBody: Buffer, headers: Record<string, string | undefined>) => VerifiedItem[] | null;

export interface ReceiveNotificationPorts {
  accounts: ProcessorAccountRepository;
  notifications: ProcessorNotificationRepository;
  sealer: SecretSealer;
  transaction: TransactionRunner;
  clock: Clock;
  /** Looks at the payment a recorded capture event names again now (its capture then settles through the runner). */
  wake: (merchantId: string, paymentId: string) => Promise<void>;
  /** A successful authorization the payment does not use is voided at its account (a late answer after a fallback). */
  voidStray: VoidStrayAuthorization;
  /** A refund or void event (refund_*, void_*), recorded: the refund or canceling payment it names moves now (after-sale.ts). */
  afterSale?: (merchantId: string, accountId: string, record: Omit<ProcessorNotificationRecord, 'version'>) => Promise<void>;
}

export interface NotificationReceipt {
  accepted: number;
  duplicates: number;
  refused: number;
  /** The body was not a notification of this processor. */
  malformed: boolean;
}

export type ReceiveProcessorNotification = (processor: 'adyen' | 'checkout', accountId: string, rawBody: Buffer, headers: Record<string, string | undefined>) => Promise<NotificationReceipt>;

/**
 * Records what a processor notified, for the account named in the URL (notifications carry no API key:
 * the signature with the account's own key is the authentication). Every item is recorded: a verified one
 * once per event (a redelivery hits the unique dedupe key and changes nothing), a forged one as refused.
 */
export function receiveProcessorNotification(ports: ReceiveNotificationPorts, verifiers: Record<'adyen' | 'checkout', NotificationVerifier>): ReceiveProcessorNotification {
  return async (processor, accountId, rawBody, headers) => {
    const account: ProcessorAccount | null = await ports.accounts.getGlobal(accountId);
    if (!account || account.processor !== processor) throw new ProcessorAccountNotFound();
    const items = verifiers[processor](openCredentials(ports.sealer, account), rawBody, headers);
    const receipt: NotificationReceipt = { accepted: 0, duplicates: 0, refused: 0, malformed: items === null };
    const now = ports.clock.now().toISOString();
    for (const item of items ?? []) {
      const id = newId();
      const common = { id, merchant_id: account.merchant_id, account_id: account.id, processor, received_at: now };
      const record: Omit<ProcessorNotificationRecord, 'version'> = item.verified
        ? {
            ...common,
            status: 'accepted',
            dedupe_key: item.event.dedupe_key,
            kind: item.event.kind,
            payment_reference: item.event.payment_reference ?? null,
            processor_reference: item.event.processor_reference ?? null,
            capture_reference: item.event.capture_reference ?? null,
            failure_reason: item.event.failure_reason ?? null,
            refusal: null,
          }
        : { ...common, status: 'refused', dedupe_key: `refused:${id}`, kind: item.event_name, payment_reference: null, processor_reference: item.processor_reference, capture_reference: null, failure_reason: null, refusal: 'invalid_signature' };
      try {
        await ports.transaction((uow) => ports.notifications.insert(uow, record));
        if (item.verified) receipt.accepted += 1;
        else receipt.refused += 1;
        if (item.verified && (record.kind === 'capture_succeeded' || record.kind === 'capture_failed') && record.payment_reference && isUuid(record.payment_reference)) {
          await ports.wake(account.merchant_id, record.payment_reference);
        }
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        receipt.duplicates += 1;
      }
      // Also on a redelivery (idempotent): a refund or void the first delivery could not settle (an error answered, so the processor sent it again).
      if (item.verified && /^(refund|void)_/.test(record.kind)) await ports.afterSale?.(account.merchant_id, account.id, record);
      // Also on a redelivery: a void that could not be sent the first time is tried again (it is idempotent).
      if (item.verified && record.kind === 'authorization_succeeded' && record.payment_reference && isUuid(record.payment_reference) && record.processor_reference) {
        await ports.voidStray(account.merchant_id, account.id, record.payment_reference, record.processor_reference);
      }
    }
    return receipt;
  };
}

/**
 * A payment whose capture waits for the processor's notification is looked at again now: the runner
 * asks the processor connection, which finds the recorded event, and the move commits as every other
 * (compare-and-set, its transaction, its event). Anything else (an unknown payment, one already settled)
 * is left alone, so a late or repeated notification changes nothing.
 */
export function wakePayment({ payments, transaction, clock }: { payments: PaymentRepository; transaction: TransactionRunner; clock: Clock }): (merchantId: string, paymentId: string) => Promise<boolean> {
  return async (merchantId, paymentId) => {
    const payment = await payments.get(merchantId, paymentId);
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

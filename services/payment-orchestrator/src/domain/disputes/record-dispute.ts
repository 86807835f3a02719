import { isUuid, newId, scopeOf, scopeOfDocument, type Mode } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from '../payment/payment-ports';
import type { ProcessorNotificationRepository } from '../processor-accounts/processor-account-ports';
import type { TransactionRunner } from '@vaultline/store';
import type { ProcessorNotificationRecord } from '../processor-accounts/processor-notification';
import { applyDisputeSignal, type Dispute, type DisputeSignal } from './dispute';
import { disputeEvents } from './dispute-events';
import type { DisputeRepository } from './dispute-ports';

export interface RecordDisputePorts {
  payments: PaymentRepository;
  disputes: DisputeRepository;
  notifications: ProcessorNotificationRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

/** Who reported the dispute: a processor account (by its id), or the simulator's test route. */
export interface DisputeReporter {
  id: string;
  merchant_id: string;
  /** The account's mode (the payment's, for the simulator): a dispute is looked for in that mode only. */
  mode: Mode;
}

/**
 * Records a chargeback notification and the dispute it opens or moves, in one commit: the notification
 * record (unique per account and event), the dispute (compare-and-set) and its events. A redelivery is
 * known by the dispute (it remembers the notifications applied) and by the record's unique key: it throws
 * DuplicateKeyError and changes nothing. A notification naming no payment of the account's merchant is
 * recorded alone (nothing to dispute). `record` is absent for the simulator's disputes, which have no
 * notification.
 */
export type RecordDispute = (reporter: DisputeReporter, record: Omit<ProcessorNotificationRecord, 'version'> | null, signal: DisputeSignal, dedupeKey?: string) => Promise<Dispute | null>;

const ATTEMPTS = 5;

/**
 * Our payment id for a dispute signal: the reference itself, or, for a processor whose disputes name only
 * its own payment (a processor reference), the payment the account's recorded capture notification of that
 * reference names (a payment is captured, and said so, before it can be disputed).
 */
async function disputedPaymentId(ports: RecordDisputePorts, reporter: DisputeReporter, reference: string): Promise<string | null> {
  if (isUuid(reference)) return reference;
  const captured = await ports.notifications.findCaptureEvent(scopeOfDocument(reporter), reporter.id, reference);
  return captured?.payment_reference && isUuid(captured.payment_reference) ? captured.payment_reference : null;
}

export function recordDispute(ports: RecordDisputePorts): RecordDispute {
  return async (reporter, record, signal, dedupeKey = record?.dedupe_key ?? newId()) => {
    const paymentId = await disputedPaymentId(ports, reporter, signal.payment_reference);
    const payment = paymentId ? await ports.payments.get(scopeOfDocument(reporter), paymentId) : null;
    if (!payment) {
      if (record) await ports.transaction((uow) => ports.notifications.insert(uow, record));
      return null;
    }
    const scope = scopeOf(payment.merchant_id, payment.mode);
    for (let attempt = 1; ; attempt++) {
      const current = await ports.disputes.findByProcessorReference(scope, reporter.id, signal.processor_reference);
      const now = ports.clock.now();
      const move = applyDisputeSignal(current, signal, { id: newId(), merchantId: payment.merchant_id, mode: payment.mode, paymentId: payment.id, processor: reporter.id, dedupeKey, at: now });
      if (!move) throw new DuplicateKeyError('disputes', ['applied']);
      try {
        return await ports.transaction((uow) => {
          if (record) ports.notifications.insert(uow, record);
          const stored = current ? ports.disputes.update(uow, { ...move.dispute, version: current.version }) : ports.disputes.insert(uow, move.dispute);
          for (const message of disputeEvents(move.dispute, move.changes, now)) uow.publish(message);
          return stored;
        });
      } catch (error) {
        // Another notification of the same dispute committed first (a first one racing, or a move): read it again.
        // (A redelivery that raced its first delivery finds the dispute on the next read, with its key applied.)
        const raced = error instanceof ConcurrentModificationError || (error instanceof DuplicateKeyError && !current);
        if (!raced || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}

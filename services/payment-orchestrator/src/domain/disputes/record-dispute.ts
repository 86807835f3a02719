import { newId, scopeOf, scopeOfDocument } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import type { Clock } from '@vaultline/core';
import { isFinal, withDisputeHold, type Payment } from '../payment/payment';
import type { PaymentRepository } from '../payment/payment-ports';
import type { ProcessorNotificationRepository } from '../processor-port/processor-notification-ports';
import type { TransactionRunner, UnitOfWork } from '@vaultline/store';
import type { ProcessorNotificationRecord } from '../processor-port/processor-notification';
import { notifiedPayment, type NotificationReporter } from '../payment/notified-payment';
import { applyDisputeSignal, holdsFunds, type Dispute, type DisputeMove, type DisputeSignal } from './dispute';
import { disputeEvents } from './dispute-events';
import type { DisputeRepository } from './dispute-ports';

export interface RecordDisputePorts {
  payments: PaymentRepository;
  disputes: DisputeRepository;
  notifications: ProcessorNotificationRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

/** Who reported the dispute: a processor account (by its id), or the simulator's test route (`simulator`). */
export type DisputeReporter = NotificationReporter;

/**
 * Records a chargeback notification and the dispute it opens or moves, in one commit: the notification
 * record (unique per account and event), the dispute (compare-and-set), the payment's hold of the disputed
 * amount (compare-and-set on the payment: a refund racing the chargeback commits before it or re-reads it)
 * and the dispute's events. A redelivery is known by the dispute (it remembers the notifications applied)
 * and by the record's unique key: it throws DuplicateKeyError and changes nothing. A notification naming no
 * payment that the reporting account handled is recorded alone (nothing to dispute). `record` is null for
 * the simulator's disputes, which have no notification and dispute any captured test payment.
 */
export type RecordDispute = (
  reporter: DisputeReporter,
  record: Omit<ProcessorNotificationRecord, 'version'> | null,
  signal: DisputeSignal,
  dedupeKey?: string,
) => Promise<Dispute | null>;

const ATTEMPTS = 5;

/**
 * Writes a dispute's move with its payment's hold and its events in the unit of work (pure of I/O). The
 * payment is written only when its hold changes; a final payment through updateSettled (it has no
 * schedule entry), any other (a dispute reported while a capture still settles) through update.
 */
export function commitDisputeMove(
  ports: Pick<RecordDisputePorts, 'payments' | 'disputes'>,
  uow: UnitOfWork,
  payment: Payment,
  current: Dispute | null,
  move: DisputeMove,
  at: Date,
): Dispute {
  const stored = current ? ports.disputes.update(uow, { ...move.dispute, version: current.version }) : ports.disputes.insert(uow, move.dispute);
  const held = withDisputeHold(payment, move.dispute.id, holdsFunds(move.dispute) ? move.dispute.amount : null);
  if (held !== payment) {
    const written = { ...held, updated_at: at.toISOString() };
    if (isFinal(written.status)) ports.payments.updateSettled(uow, written);
    else ports.payments.update(uow, written);
  }
  for (const message of disputeEvents(move.dispute, move.changes, at)) uow.publish(message);
  return stored;
}

export function recordDispute(ports: RecordDisputePorts): RecordDispute {
  const paymentOf = async (reporter: DisputeReporter, record: unknown, reference: string): Promise<Payment | null> =>
    record === null ? ports.payments.get(scopeOfDocument(reporter), reference) : notifiedPayment(ports, reporter, reference);
  return async (reporter, record, signal, dedupeKey = record?.dedupe_key ?? newId()) => {
    for (let attempt = 1; ; attempt++) {
      const payment = await paymentOf(reporter, record, signal.payment_reference);
      if (!payment) {
        if (record) await ports.transaction((uow) => ports.notifications.insert(uow, record));
        return null;
      }
      const scope = scopeOf(payment.merchant_id, payment.mode);
      const current = await ports.disputes.findByProcessorReference(scope, reporter.id, signal.processor_reference);
      const now = ports.clock.now();
      const move = applyDisputeSignal(current, signal, {
        id: newId(),
        merchantId: payment.merchant_id,
        mode: payment.mode,
        paymentId: payment.id,
        processor: reporter.id,
        dedupeKey,
        at: now,
      });
      if (!move) throw new DuplicateKeyError('disputes', ['applied']);
      try {
        return await ports.transaction((uow) => {
          if (record) ports.notifications.insert(uow, record);
          return commitDisputeMove(ports, uow, payment, current, move, now);
        });
      } catch (error) {
        // Another notification of the same dispute, or a refund of its payment, committed first: read both again.
        // (A redelivery that raced its first delivery finds the dispute on the next read, with its key applied.)
        const raced = error instanceof ConcurrentModificationError || (error instanceof DuplicateKeyError && !current);
        if (!raced || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}

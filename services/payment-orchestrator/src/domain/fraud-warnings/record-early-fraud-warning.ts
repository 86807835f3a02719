import { newId, scopeOf, type Clock } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError, type TransactionRunner, type UnitOfWork } from '@vaultline/store';
import { isDisputed, refundableAmount, type Payment } from '../payment/payment';
import type { PaymentRepository } from '../payment/payment-ports';
import { notifiedPayment, type NotificationReporter } from '../payment/notified-payment';
import type { ProcessorNotificationRepository } from '../processor-port/processor-notification-ports';
import type { ProcessorNotificationRecord } from '../processor-port/processor-notification';
import { applyFraudWarningSignal, type EarlyFraudWarning, type EarlyFraudWarningSignal } from './early-fraud-warning';
import { earlyFraudWarningEvents } from './early-fraud-warning-events';
import type { EarlyFraudWarningRepository } from './early-fraud-warning-ports';

export interface RecordEarlyFraudWarningPorts {
  payments: PaymentRepository;
  warnings: EarlyFraudWarningRepository;
  notifications: ProcessorNotificationRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

/**
 * Records an issuer's fraud report and the early fraud warning it opens or moves, in one commit with the
 * notification record (unique per account and event) and the warning's events. Never a dispute. A report
 * naming no payment that the reporting account handled is recorded alone; a redelivery throws
 * DuplicateKeyError and changes nothing.
 */
export type RecordEarlyFraudWarning = (
  reporter: NotificationReporter,
  record: Omit<ProcessorNotificationRecord, 'version'>,
  signal: EarlyFraudWarningSignal,
) => Promise<EarlyFraudWarning | null>;

const ATTEMPTS = 5;

/** Whether a refund could still head a dispute off: captured, something left to refund, no chargeback holding it. */
export function isRefundable(payment: Payment): boolean {
  return payment.status === 'captured' && refundableAmount(payment) > 0 && !isDisputed(payment);
}

/** Writes a warning's move and its events in the unit of work. */
export function commitFraudWarningMove(
  warnings: EarlyFraudWarningRepository,
  uow: UnitOfWork,
  current: EarlyFraudWarning | null,
  move: NonNullable<ReturnType<typeof applyFraudWarningSignal>>,
  at: Date,
): EarlyFraudWarning {
  const stored = current ? warnings.update(uow, { ...move.warning, version: current.version }) : warnings.insert(uow, move.warning);
  for (const message of earlyFraudWarningEvents(move.warning, move.changes, at)) uow.publish(message);
  return stored;
}

export function recordEarlyFraudWarning(ports: RecordEarlyFraudWarningPorts): RecordEarlyFraudWarning {
  return async (reporter, record, signal) => {
    for (let attempt = 1; ; attempt++) {
      const payment = await notifiedPayment(ports, reporter, signal.payment_reference);
      if (!payment) {
        await ports.transaction((uow) => ports.notifications.insert(uow, record));
        return null;
      }
      const scope = scopeOf(payment.merchant_id, payment.mode);
      const current = await ports.warnings.findByProcessorReference(scope, reporter.id, signal.processor_reference);
      const now = ports.clock.now();
      const context = {
        id: newId(),
        merchantId: payment.merchant_id,
        mode: payment.mode,
        paymentId: payment.id,
        processor: reporter.id,
        dedupeKey: record.dedupe_key,
        at: now,
        refundable: isRefundable(payment),
      };
      const move = applyFraudWarningSignal(current, signal, context);
      if (!move) throw new DuplicateKeyError('early_fraud_warnings', ['applied']);
      try {
        return await ports.transaction((uow) => {
          ports.notifications.insert(uow, record);
          return commitFraudWarningMove(ports.warnings, uow, current, move, now);
        });
      } catch (error) {
        const raced = error instanceof ConcurrentModificationError || (error instanceof DuplicateKeyError && !current);
        if (!raced || attempt >= ATTEMPTS) throw error;
      }
    }
  };
}

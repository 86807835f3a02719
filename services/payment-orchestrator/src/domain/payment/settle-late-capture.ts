import { newId, type Scope } from '@vaultline/core';
import { ConcurrentModificationError } from '@vaultline/store';
import { captureDataOf, paymentMovedEvent } from './payment-events';
import { movePayment } from './payment-status';
import { effectiveTime, type Payment, type PendingCapture, type ProcessorTransaction } from './payment';
import type { ProcessorNotificationRecord } from '../processor-port/processor-notification';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository, TransactionRepository } from './payment-ports';
import type { TransactionRunner } from '@vaultline/store';
import { shownUseCaseOf } from '../earlier/earlier-payment';

export interface SettleLateCapturePorts {
  payments: PaymentRepository;
  transactions: TransactionRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

/** A verified capture success that may name a payment failed at capture; true when it moved it. */
export type SettleLateCapture = (
  scope: Scope,
  accountId: string,
  event: Pick<ProcessorNotificationRecord, 'kind' | 'payment_reference' | 'processor_reference' | 'capture_reference'>,
) => Promise<boolean>;

/**
 * A capture reported failed and then succeeded after all: Adyen answers a capture that failed for a
 * technical reason with CAPTURE_FAILED and recaptures it by itself, reporting a CAPTURE success ("Transaction
 * Recaptured") later; Checkout.com may report payment_captured after payment_capture_declined. The payment
 * failed at capture (`failure_reason: capture_failed`) then moves on to `captured` with its `payment.captured`
 * event and a succeeded capture transaction: the money moved, so the payment says so. Only the account that
 * authorized the payment can settle it, naming its authorization (or the capture sent). In the other order
 * the success settles the payment and the late failure changes nothing (a captured payment is final).
 */
export function settleLateCapture(ports: SettleLateCapturePorts): SettleLateCapture {
  return async (scope, accountId, event) => {
    if (event.kind !== 'capture_succeeded' || !event.payment_reference) return false;
    const payment = await ports.payments.get(scope, event.payment_reference);
    if (payment && (payment.status === 'authorized' || payment.status === 'partially_captured'))
      return settleFailedManualCapture(ports, payment, accountId, event.capture_reference);
    const capture = payment?.progress.capture;
    if (!payment || !capture || payment.status !== 'failed' || payment.failure_reason !== 'capture_failed') return false;
    if (payment.progress.authorized_by !== accountId) return false;
    const namesIt =
      event.processor_reference === payment.progress.authorization_reference ||
      (event.capture_reference !== null && event.capture_reference === capture.processor_reference);
    if (!namesIt) return false;
    const now = effectiveTime(payment, ports.clock.now());
    try {
      await ports.transaction((uow) => {
        ports.transactions.insert(uow, lateCaptureTransaction(payment, accountId, capture.amount, event.capture_reference ?? event.processor_reference, now));
        const captured = movePayment(
          payment,
          'captured',
          {
            amount: { ...payment.amount, captured: capture.amount },
            failure_reason: null,
            next_run_at: null,
            progress: { ...payment.progress, transactions: payment.progress.transactions + 1 },
          },
          now,
        );
        uow.publish(paymentMovedEvent(captured, now));
        ports.payments.update(uow, captured);
      });
    } catch (error) {
      // Another delivery of the same success moved it first.
      if (error instanceof ConcurrentModificationError) return false;
      throw error;
    }
    return true;
  };
}

/**
 * The manual-capture side of a late success: a capture that failed left the payment authorized (or
 * partially captured); the processor then reports that very capture (by its reference there) captured after
 * all. It counts as the capture it was: amount.captured grows by it, payment.captured with it, and the payment
 * ends captured if it was final (the processor released the rest with it) or took all that was left.
 */
async function settleFailedManualCapture(
  ports: SettleLateCapturePorts,
  payment: Payment,
  accountId: string,
  captureReference: string | null,
): Promise<boolean> {
  const failed = captureReference ? payment.progress.failed_captures?.find((c) => c.processor_reference === captureReference) : undefined;
  if (!failed || payment.progress.authorized_by !== accountId) return false;
  const captured = (payment.amount.captured ?? 0) + failed.amount;
  const authorized = payment.amount.authorized ?? 0;
  if (captured > authorized) return false;
  const final = failed.final !== false || captured === authorized;
  const now = effectiveTime(payment, ports.clock.now());
  const rest: PendingCapture[] = (payment.progress.failed_captures ?? []).filter((c) => c !== failed);
  try {
    await ports.transaction((uow) => {
      ports.transactions.insert(uow, lateCaptureTransaction(payment, accountId, failed.amount, captureReference, now));
      // The failed capture is taken back to where it stood (capturing) and settles from there as any capture does.
      const moved = movePayment(
        { ...payment, status: 'capturing' },
        final ? 'captured' : 'partially_captured',
        {
          amount: { ...payment.amount, captured },
          next_run_at: null,
          progress: { ...payment.progress, failed_captures: rest, transactions: payment.progress.transactions + 1 },
        },
        now,
      );
      uow.publish(paymentMovedEvent(moved, now, captureDataOf(failed, 'succeeded')));
      ports.payments.update(uow, moved);
    });
  } catch (error) {
    if (error instanceof ConcurrentModificationError) return false;
    throw error;
  }
  return true;
}

/** The succeeded capture transaction a late success records. */
function lateCaptureTransaction(
  payment: Payment,
  accountId: string,
  amount: number,
  reference: string | null,
  at: Date,
): Omit<ProcessorTransaction, 'version'> {
  return {
    id: newId(),
    merchant_id: payment.merchant_id,
    mode: payment.mode,
    payment_id: payment.id,
    sequence: payment.progress.transactions,
    processor: accountId,
    kind: 'capture',
    status: 'succeeded',
    failure_reason: null,
    amount,
    processor_reference: reference,
    use_case: shownUseCaseOf(payment),
    created_at: at.toISOString(),
  };
}

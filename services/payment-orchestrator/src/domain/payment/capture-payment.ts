import type { Scope } from '@vaultline/core';
import { ConcurrentModificationError } from '@vaultline/store';
import { stepOf } from '../flows/flow';
import { assertAmountTaken } from '../processor-port/processor-amounts';
import { capturableAmount, effectiveTime, uncapturedAmount, type Payment, type PendingCapture } from './payment';
import { captureDataOf, paymentMovedEvent } from './payment-events';
import {
  AlreadyCaptured,
  AmountExceedsAuthorized,
  CaptureNotAllowed,
  CurrencyMismatch,
  MultipleCapturesNotSupported,
  PartialCaptureNotSupported,
  PaymentNotFound,
} from './payment-errors';
import { movePayment } from './payment-status';
import { paymentOfEarlierRequest, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from './payment-requests';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { ProcessorDirectory, Processors } from '../processor-port/processor-port';
import type { TransactionRunner } from '@vaultline/store';

export interface CapturePaymentPorts extends PaymentRequestPorts {
  payments: PaymentRepository;
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface CaptureCommand {
  paymentId: string;
  reference: string | null;
  /** Partial capture: amount and currency_code together; without them the capture takes all that is capturable. */
  amount: number | null;
  currencyCode: string | null;
  /**
   * false: more captures follow (the processor keeps the rest of the authorization); true or absent: the
   * last one, after which the processor releases what is left.
   */
  finalCapture?: boolean | null;
  /** The merchant's Idempotency-Key: a retry of a capture that happened gets the payment, not already_captured. */
  requestKey?: PaymentRequestKey | null;
}

export type CapturePayment = (scope: Scope, command: CaptureCommand) => Promise<Payment>;

/**
 * Pure: the capture's checks and the move to capturing. A manual-capture payment is captured while it is
 * authorized or partially captured, one capture at a time, each at most what is capturable (the
 * authorization less what was captured). A capture that takes all that is left is final whatever it says.
 */
function startCapture(payment: Payment, command: CaptureCommand, processors: Processors, at: Date): Payment {
  if (payment.decision?.flow.capture_mode !== 'manual')
    throw new CaptureNotAllowed("This payment's flow captures automatically; a manual capture is not possible.");
  if (payment.status === 'captured') throw new AlreadyCaptured();
  if (payment.status === 'capturing') {
    if (payment.progress.capture?.final !== false) throw new AlreadyCaptured();
    throw new CaptureNotAllowed('A capture of this payment is under way; capture again once it settled (payment.captured or payment.capture_failed).');
  }
  if (payment.status !== 'authorized' && payment.status !== 'partially_captured') {
    throw new CaptureNotAllowed(`Only an authorized (or partially captured) payment can be captured; this one is ${payment.status}.`);
  }
  if (command.currencyCode !== null && command.currencyCode !== payment.currency_code) throw new CurrencyMismatch(payment.currency_code);
  const capturable = capturableAmount(payment);
  const amount = command.amount ?? capturable;
  if (amount > capturable) throw new AmountExceedsAuthorized(capturable);
  const final = command.finalCapture !== false || amount === capturable;
  const processorId = payment.progress.authorized_by ?? stepOf(payment.decision.flow, 'capture')!.processor;
  const capabilities = processors.get(processorId)?.capabilities;
  // Partial: this capture leaves part of the authorization uncaptured.
  if (amount < uncapturedAmount(payment) && !capabilities?.partialCapture) throw new PartialCaptureNotSupported(processorId);
  if (!final && !capabilities?.multipleCaptures) throw new MultipleCapturesNotSupported(processorId);
  assertAmountTaken(processors.get(processorId)?.amounts, amount, payment.currency_code, 'capture');
  const sequence = (payment.progress.captures ?? 0) + 1;
  const capture: PendingCapture = { amount, reference: command.reference, processor_reference: null, final, sequence };
  return movePayment(payment, 'capturing', { progress: { ...payment.progress, capture, captures: sequence }, next_run_at: at.toISOString() }, at);
}

/** authorized or partially_captured → capturing (compare-and-set with payment.capturing); the runner then sends the capture. Of concurrent captures one wins; the others are judged against it (already_captured, or capture_not_allowed while it is under way). */
export function capturePayment(ports: CapturePaymentPorts): CapturePayment {
  const { payments, directory, transaction, clock } = ports;
  return async (scope, command) => {
    const earlier = await paymentOfEarlierRequest(ports, scope, command.requestKey);
    if (earlier) return earlier;
    const payment = await payments.get(scope, command.paymentId);
    if (!payment) throw new PaymentNotFound();
    const now = clock.now();
    const capturing = startCapture(payment, command, await directory(scope, payment.mode), now);
    try {
      return await transaction((uow) => {
        uow.publish(paymentMovedEvent(capturing, effectiveTime(payment, now), captureDataOf(capturing.progress.capture!, 'pending')));
        rememberRequest(ports, uow, scope, command.requestKey, capturing.id);
        return payments.update(uow, capturing);
      });
    } catch (error) {
      if (error instanceof ConcurrentModificationError) {
        // Another capture (or a cancel) moved the payment first: judge this one against it as it is now.
        const current = await payments.get(scope, command.paymentId);
        if (current && current.status !== 'authorized' && current.status !== 'partially_captured')
          startCapture(current, command, await directory(scope, payment.mode), now);
      }
      throw error;
    }
  };
}

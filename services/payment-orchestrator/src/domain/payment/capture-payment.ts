import type { Scope } from '@vaultline/core';
import { ConcurrentModificationError } from '@vaultline/store';
import { stepOf } from '../flows/flow';
import { assertAmountTaken } from '../processing/processor-amounts';
import { effectiveTime, type Payment } from './payment';
import { paymentMovedEvent } from './payment-events';
import { AlreadyCaptured, AmountExceedsAuthorized, CaptureNotAllowed, CurrencyMismatch, PartialCaptureNotSupported, PaymentNotFound } from './payment-errors';
import { movePayment } from './payment-status';
import { paymentOfEarlierRequest, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from './payment-requests';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { ProcessorDirectory, Processors } from '../processing/processor-port';
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
  /** Partial capture: amount and currency_code together; a full capture gives neither. */
  amount: number | null;
  currencyCode: string | null;
  /** The merchant's Idempotency-Key: a retry of a capture that happened gets the payment, not already_captured. */
  requestKey?: PaymentRequestKey | null;
}

export type CapturePayment = (scope: Scope, command: CaptureCommand) => Promise<Payment>;

/** Pure: the capture's checks and the authorized → capturing move. */
export function startCapture(payment: Payment, command: CaptureCommand, processors: Processors, at: Date): Payment {
  if (payment.decision?.flow.capture_mode !== 'manual') throw new CaptureNotAllowed('This payment\'s flow captures automatically; a manual capture is not possible.');
  if (payment.progress.capture) throw new AlreadyCaptured();
  if (payment.status !== 'authorized') throw new CaptureNotAllowed(`Only an authorized payment can be captured; this one is ${payment.status}.`);
  const authorized = payment.amount.authorized ?? payment.amount.requested;
  if (command.currencyCode !== null && command.currencyCode !== payment.currency_code) throw new CurrencyMismatch(payment.currency_code);
  const amount = command.amount ?? authorized;
  if (amount > authorized) throw new AmountExceedsAuthorized();
  const processorId = payment.progress.authorized_by ?? stepOf(payment.decision.flow, 'capture')!.processor;
  if (amount < authorized && !processors.get(processorId)?.capabilities.partialCapture) throw new PartialCaptureNotSupported(processorId);
  assertAmountTaken(processors.get(processorId)?.amounts, amount, payment.currency_code, 'capture');
  return movePayment(
    payment,
    'capturing',
    { progress: { ...payment.progress, capture: { amount, reference: command.reference, processor_reference: null } }, next_run_at: at.toISOString() },
    at,
  );
}

/** authorized → capturing (compare-and-set with payment.capturing); the runner then sends the capture. A concurrent second capture loses: already_captured. */
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
        uow.publish(paymentMovedEvent(capturing, effectiveTime(payment, now)));
        rememberRequest(ports, uow, scope, command.requestKey, capturing.id);
        return payments.update(uow, capturing);
      });
    } catch (error) {
      if (error instanceof ConcurrentModificationError) {
        const current = await payments.get(scope, command.paymentId);
        if (current?.progress.capture) throw new AlreadyCaptured();
      }
      throw error;
    }
  };
}

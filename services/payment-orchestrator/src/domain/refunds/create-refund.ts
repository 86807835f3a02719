import { newId, type Scope } from '@vaultline/core';
import { ConcurrentModificationError } from '@vaultline/store';
import { stepOf } from '../flows/flow';
import { assertAmountTaken } from '../processor-port/processor-amounts';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import { disputedAmount, hasCapturedMoney, isDisputed, refundableAmount, type Payment } from '../payment/payment';
import { CurrencyMismatch, PaymentNotFound } from '../payment/payment-errors';
import { idOf, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from '../payment/payment-requests';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from '../payment/payment-ports';
import type { RefundRepository } from './refund-ports';
import type { TransactionRunner } from '@vaultline/store';
import { AmountExceedsRefundable, PaymentDisputed, RefundNotAllowed, type Refund } from './refund';
import type { RefundReason } from '../payment-vocabulary/refund-reason';
import { refundEvent } from './refund-events';
import { writeRefundTotals } from './refund-totals';

export interface CreateRefundPorts extends PaymentRequestPorts {
  payments: PaymentRepository;
  /** The merchant's processors: a refund amount the payment's processor cannot take is refused before anything is stored. */
  directory?: ProcessorDirectory;
  refunds: RefundRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface RefundCommand {
  paymentId: string;
  /** Absent: the rest of the refundable amount. */
  amount: number | null;
  currencyCode: string | null;
  reference: string | null;
  reason: RefundReason | null;
  requestKey?: PaymentRequestKey | null;
}

export type CreateRefund = (scope: Scope, command: RefundCommand) => Promise<Refund>;

/** Every concurrent refund of one payment commits or re-reads once per competitor: more than enough for any burst. */
const MAX_TRIES = 50;

/** Pure: the refund's checks against the payment as read, and the refund with the payment that reserves its amount. */
export function startRefund(
  payment: Payment,
  command: RefundCommand,
  scope: Scope,
  at: Date,
  id: string,
): { refund: Omit<Refund, 'version'>; payment: Payment } {
  if (!hasCapturedMoney(payment))
    throw new RefundNotAllowed(
      `Only a captured (or partially captured) payment can be refunded; this one is ${payment.status}.${payment.status === 'authorized' ? ' Cancel it to release the authorization.' : ''}`,
    );
  if (isDisputed(payment)) throw new PaymentDisputed(disputedAmount(payment), payment.currency_code);
  if (command.currencyCode !== null && command.currencyCode !== payment.currency_code) throw new CurrencyMismatch(payment.currency_code);
  const refundable = refundableAmount(payment);
  const amount = command.amount ?? refundable;
  if (amount <= 0 || amount > refundable) throw new AmountExceedsRefundable(refundable);
  const processor =
    payment.progress.authorized_by ?? stepOf(payment.decision!.flow, 'capture')?.processor ?? stepOf(payment.decision!.flow, 'authorization')!.processor;
  const now = at.toISOString();
  const refund: Omit<Refund, 'version'> = {
    id,
    merchant_id: payment.merchant_id,
    mode: scope.mode,
    payment_id: payment.id,
    amount,
    currency_code: payment.currency_code,
    status: 'pending',
    failure_reason: null,
    reason: command.reason,
    reference: command.reference,
    processor,
    processor_reference: null,
    next_run_at: now,
    created_at: now,
    updated_at: now,
  };
  // amount.refunded appears with the first refund (0 until one succeeds).
  return {
    refund,
    payment: {
      ...payment,
      amount: { ...payment.amount, refunded: payment.amount.refunded ?? 0 },
      refunds_pending: (payment.refunds_pending ?? 0) + amount,
      updated_at: now,
    },
  };
}

/**
 * POST /payments/{payment_id}/refunds. The refund's amount is reserved on the payment in the refund's
 * own commit (compare-and-set on the payment's version), so of concurrent refunds each one sees the ones
 * committed before it and none can take more than the refundable amount. The refund is then sent by the
 * refund runner (`onCreated`), outside the request.
 */
export function createRefund(ports: CreateRefundPorts, onCreated: (refund: Refund) => void): CreateRefund {
  return async (scope, command) => {
    const earlier = await refundOfEarlierRequest(ports, scope, command.requestKey);
    if (earlier) return earlier;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const payment = await ports.payments.get(scope, command.paymentId);
      // Test and live are two worlds: a key of the other mode does not see the payment.
      if (!payment || payment.mode !== scope.mode) throw new PaymentNotFound();
      const now = ports.clock.now();
      const started = startRefund(payment, command, scope, now, newId());
      if (ports.directory)
        assertAmountTaken(
          (await ports.directory(scope, payment.mode)).get(started.refund.processor)?.amounts,
          started.refund.amount,
          payment.currency_code,
          'refund',
        );
      try {
        const refund = await ports.transaction((uow) => {
          const inserted = ports.refunds.insert(uow, started.refund);
          writeRefundTotals(ports.payments, uow, started.payment);
          uow.publish(refundEvent(inserted, now));
          rememberRequest(ports, uow, scope, command.requestKey, payment.id, inserted.id);
          return inserted;
        });
        onCreated(refund);
        return refund;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    throw new ConcurrentModificationError('payments', command.paymentId);
  };
}

async function refundOfEarlierRequest(ports: CreateRefundPorts, scope: Scope, requestKey: PaymentRequestKey | null | undefined): Promise<Refund | null> {
  if (!requestKey || !ports.paymentRequests) return null;
  const earlier = await ports.paymentRequests.get(scope, idOf(scope.merchantId, requestKey));
  return earlier?.refund_id ? ports.refunds.get(scope, earlier.refund_id) : null;
}

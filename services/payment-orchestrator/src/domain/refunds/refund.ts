import { ConflictError, NotFoundError, ValidationError, type Mode } from '@vaultline/core';
import type { RefundReason } from '../payment-vocabulary/refund-reason';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/**
 * Money given back on a captured payment, in part or in full. Created pending (its amount reserved on
 * the payment, so concurrent refunds never exceed the captured amount), sent to the processor that
 * captured, then settled: succeeded (the payment's amount.refunded grows) or failed (the amount is
 * refundable again). A refund belongs to the mode of the key that created it.
 */
export interface Refund {
  id: string;
  merchant_id: string;
  mode: Mode;
  version: number;
  payment_id: string;
  amount: number;
  currency_code: string;
  status: RefundStatus;
  failure_reason: string | null;
  reason: RefundReason | null;
  reference: string | null;
  /** The processor (built-in id or account id) that captured the payment, and its reference of the refund once sent. */
  processor: string;
  processor_reference: string | null;
  /** When the refund runner must look at it next (send it, or ask how it settled); null once settled or while a notification is awaited. */
  next_run_at: string | null;
  /** How often the processor was asked about it while pending without a final word (absent: never): each question waits longer. */
  status_checks?: number;
  created_at: string;
  updated_at: string;
}

export class RefundNotFound extends NotFoundError {
  constructor() {
    super('refund');
  }
}

export class RefundNotAllowed extends ConflictError {
  constructor(detail: string) {
    super('refund_not_allowed', detail);
  }
}

/**
 * A chargeback holds or took the payment's money (a dispute open or lost): a refund now would pay the
 * cardholder twice. Stripe refuses it the same way (charge_disputed); the dispute is answered instead.
 */
export class PaymentDisputed extends ConflictError {
  constructor(disputed: number, currencyCode: string) {
    super(
      'payment_disputed',
      `This payment has a chargeback that is open or lost (amount.disputed ${disputed} ${currencyCode}): a refund would pay the cardholder twice. Answer the dispute instead (GET /payments/{payment_id}/disputes; POST /disputes/{dispute_id}/accept or /evidence).`,
    );
  }
}

export class AmountExceedsRefundable extends ValidationError {
  constructor(refundable: number) {
    super('amount', `amount must not exceed the refundable amount, ${refundable} (captured, less refunds pending or succeeded).`, 'amount_exceeds_refundable');
  }
}

/** The refund after it settled (pure); a settled refund never moves again. */
export function settleRefund(
  refund: Refund,
  outcome: { status: 'succeeded'; processor_reference: string | null } | { status: 'failed'; failure_reason: string },
  at: Date,
): Refund {
  if (refund.status !== 'pending') throw new Error(`A ${refund.status} refund cannot settle again`);
  return outcome.status === 'succeeded'
    ? {
        ...refund,
        status: 'succeeded',
        processor_reference: outcome.processor_reference ?? refund.processor_reference,
        next_run_at: null,
        updated_at: at.toISOString(),
      }
    : { ...refund, status: 'failed', failure_reason: outcome.failure_reason, next_run_at: null, updated_at: at.toISOString() };
}

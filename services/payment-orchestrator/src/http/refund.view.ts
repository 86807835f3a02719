import type { Refund } from '../domain/refunds/refund';

/** A refund as the merchant sees it (Stripe's shape): nothing of the processor it went to. */
export function toRefundView(refund: Refund): Record<string, unknown> {
  return {
    id: refund.id,
    object: 'refund',
    payment_id: refund.payment_id,
    amount: refund.amount,
    currency_code: refund.currency_code,
    status: refund.status,
    failure_reason: refund.failure_reason,
    reason: refund.reason,
    reference: refund.reference,
    livemode: refund.mode === 'live',
    created_at: refund.created_at,
  };
}

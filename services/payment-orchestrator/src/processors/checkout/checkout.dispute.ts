import { z } from 'zod';
import { isUuid } from '@vaultline/core';
import { fromProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { checkoutAmounts } from './checkout.amounts';
import { disputeReasonOf, type DisputeReason, type DisputeSignal, type DisputeStatus } from '../../domain/disputes/dispute';

/**
 * Checkout.com's dispute webhooks (the same Cko-Signature as every webhook). `data.id` is the dispute
 * (dsp_…), `data.payment_reference` the reference we sent with the payment (our payment id), else
 * `data.payment_id` its own (pay_…, which the payment keeps as its authorization's reference),
 * `data.category` the reason, `data.evidence_required_by` the deadline for evidence. Stages: the first chargeback (received → evidence required → submitted →
 * acknowledged → won/lost/accepted/expired/canceled/resolved), then arbitration.
 */
const EVENTS: Record<string, { stage: number; status: DisputeStatus }> = {
  dispute_received: { stage: 1, status: 'needs_response' },
  dispute_evidence_required: { stage: 1, status: 'needs_response' },
  dispute_evidence_submitted: { stage: 2, status: 'under_review' },
  dispute_evidence_acknowledged_by_scheme: { stage: 2, status: 'under_review' },
  dispute_won: { stage: 3, status: 'won' },
  // Canceled by the issuer (the amount is credited back), or resolved because the payment had been refunded already.
  dispute_canceled: { stage: 3, status: 'won' },
  dispute_resolved: { stage: 3, status: 'won' },
  dispute_lost: { stage: 3, status: 'lost' },
  dispute_accepted: { stage: 3, status: 'lost' },
  dispute_expired: { stage: 3, status: 'lost' },
  dispute_arbitration_sent_to_scheme: { stage: 4, status: 'under_review' },
  dispute_arbitration_evidence_submitted: { stage: 4, status: 'under_review' },
  dispute_arbitration_evidence_acknowledged_by_scheme: { stage: 4, status: 'under_review' },
  dispute_arbitration_won: { stage: 5, status: 'won' },
  dispute_arbitration_lost: { stage: 5, status: 'lost' },
};

/** Checkout.com's dispute categories → the merchant's reasons. */
const CATEGORIES: Record<string, DisputeReason> = {
  fraudulent: 'fraudulent',
  unrecognized: 'unrecognized',
  canceled_recurring: 'subscription_canceled',
  product_service_not_received: 'product_not_received',
  not_as_described: 'product_unacceptable',
  credit_not_issued: 'credit_not_processed',
  duplicate: 'duplicate',
  incorrect_amount: 'incorrect_amount',
  general: 'general',
};

const disputeWebhookSchema = z.object({
  type: z.string(),
  data: z.object({
    id: z.string().min(1),
    amount: z.number().int().nonnegative(),
    currency: z.string().length(3),
    category: z.string().optional(),
    reason_code: z.string().optional(),
    payment_id: z.string().optional(),
    payment_reference: z.string().optional(),
    evidence_required_by: z.string().optional(),
  }),
});

/** A dispute webhook body → the dispute signal (pure); null for any other type, or a dispute body missing its fields. */
export function checkoutDisputeSignal(body: unknown): DisputeSignal | null {
  const parsed = disputeWebhookSchema.safeParse(body);
  if (!parsed.success) return null;
  const known = EVENTS[parsed.data.type];
  if (!known) return null;
  const { data } = parsed.data;
  const dueBy = data.evidence_required_by === undefined ? Number.NaN : Date.parse(data.evidence_required_by);
  return {
    processor_reference: data.id,
    // Ours when it is one of our payment ids, else Checkout.com's own id of the payment.
    payment_reference: (data.payment_reference && isUuid(data.payment_reference) ? data.payment_reference : (data.payment_id ?? data.payment_reference)) ?? '',
    status: known.status,
    stage: known.stage,
    amount: fromProcessorAmount(checkoutAmounts, data.amount, data.currency.toUpperCase()),
    currency_code: data.currency.toUpperCase(),
    reason: (data.category && CATEGORIES[data.category]) || disputeReasonOf(data.category),
    event: parsed.data.type,
    ...(Number.isNaN(dueBy) ? {} : { evidence_due_by: new Date(dueBy).toISOString() }),
  };
}

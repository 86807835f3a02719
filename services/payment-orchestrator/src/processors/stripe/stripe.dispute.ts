import { disputeReasonOf, type DisputeReason, type DisputeSignal, type DisputeStatus } from '../../domain/disputes/dispute';
import { fromProcessorAmount } from '../../domain/processing/processor-amounts';
import { field, text } from '../processor-wire';
import { stripeAmounts } from './stripe.amounts';

/**
 * Stripe's dispute events (charge.dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated)
 * carry the Dispute: `id` (dp_…, the same on every event), `status`, `reason`, `amount`, `currency`,
 * `payment_intent` (Stripe's payment: the engine finds ours through the capture Stripe notified). An
 * inquiry (warning_…) is the first stage; a chargeback the second.
 */
const STATUSES: Record<string, { stage: number; status: DisputeStatus }> = {
  warning_needs_response: { stage: 1, status: 'needs_response' },
  warning_under_review: { stage: 1, status: 'under_review' },
  // The inquiry closed without a chargeback, or the dispute was prevented: the funds stay.
  warning_closed: { stage: 1, status: 'won' },
  prevented: { stage: 1, status: 'won' },
  needs_response: { stage: 2, status: 'needs_response' },
  under_review: { stage: 2, status: 'under_review' },
  won: { stage: 2, status: 'won' },
  lost: { stage: 2, status: 'lost' },
};

const REASONS: Record<string, DisputeReason> = {
  fraudulent: 'fraudulent',
  unrecognized: 'unrecognized',
  duplicate: 'duplicate',
  subscription_canceled: 'subscription_canceled',
  product_not_received: 'product_not_received',
  product_unacceptable: 'product_unacceptable',
  credit_not_processed: 'credit_not_processed',
  general: 'general',
};

/** A charge.dispute.* event's Dispute → the dispute signal (pure); null for any other event or an unknown status. */
export function stripeDisputeSignal(type: string, dispute: unknown): DisputeSignal | null {
  if (!type.startsWith('charge.dispute.')) return null;
  const known = STATUSES[String(field(dispute, 'status'))];
  const id = text(field(dispute, 'id'));
  const amount = field(dispute, 'amount');
  const currency = text(field(dispute, 'currency'));
  if (!known || !id || typeof amount !== 'number' || !currency) return null;
  const reason = text(field(dispute, 'reason'));
  return {
    processor_reference: id,
    payment_reference: text(field(dispute, 'payment_intent')) ?? '',
    status: known.status,
    stage: known.stage,
    amount: fromProcessorAmount(stripeAmounts, amount, currency.toUpperCase()),
    currency_code: currency.toUpperCase(),
    reason: (reason && REASONS[reason]) || disputeReasonOf(reason),
    event: type,
  };
}

import { disputeReasonOf, type DisputeReason, type DisputeSignal, type DisputeStatus } from '../../domain/disputes/dispute';
import type { EarlyFraudWarningSignal, FraudType } from '../../domain/fraud-warnings/early-fraud-warning';
import { FRAUD_TYPES } from '@vaultline/contracts';
import { fromProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { field, text } from '../processor-wire';
import { stripeAmounts } from './stripe.amounts';

/**
 * Stripe's dispute events (charge.dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated)
 * carry the Dispute: `id` (dp_…, the same on every event), `status`, `reason`, `amount`, `currency`,
 * `payment_intent` (Stripe's payment: the engine finds ours by the PaymentIntent id the payment keeps as
 * its authorization's reference), `evidence_details.due_by` (Unix seconds). An inquiry (warning_…: Stripe
 * debits nothing yet, `is_charge_refundable` true) is the first stage; a chargeback the second.
 */
const STATUSES: Record<string, { stage: number; status: DisputeStatus; inquiry?: true }> = {
  warning_needs_response: { stage: 1, status: 'needs_response', inquiry: true },
  warning_under_review: { stage: 1, status: 'under_review', inquiry: true },
  // The inquiry closed without a chargeback, or the dispute was prevented: the funds stay.
  warning_closed: { stage: 1, status: 'won', inquiry: true },
  prevented: { stage: 1, status: 'won', inquiry: true },
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
  const dueBy = field(field(dispute, 'evidence_details'), 'due_by');
  return {
    processor_reference: id,
    payment_reference: text(field(dispute, 'payment_intent')) ?? '',
    status: known.status,
    stage: known.stage,
    amount: fromProcessorAmount(stripeAmounts, amount, currency.toUpperCase()),
    currency_code: currency.toUpperCase(),
    reason: (reason && REASONS[reason]) || disputeReasonOf(reason),
    event: type,
    ...(known.inquiry ? { inquiry: true } : {}),
    ...(typeof dueBy === 'number' && Number.isInteger(dueBy) && dueBy > 0 ? { evidence_due_by: new Date(dueBy * 1000).toISOString() } : {}),
  };
}

/**
 * radar.early_fraud_warning.created and .updated carry the EarlyFraudWarning: `id` (issfr_…), `actionable`,
 * `fraud_type` (card_never_received, fraudulent_card_application, made_with_counterfeit_card,
 * made_with_lost_card, made_with_stolen_card, misc, unauthorized_use_of_card), `charge` and
 * `payment_intent` (the payment: ours keeps the PaymentIntent id). Pure; null for any other event, or one
 * without its id or PaymentIntent.
 */
export function stripeFraudWarningSignal(type: string, warning: unknown): EarlyFraudWarningSignal | null {
  if (type !== 'radar.early_fraud_warning.created' && type !== 'radar.early_fraud_warning.updated') return null;
  const id = text(field(warning, 'id'));
  const intent = text(field(warning, 'payment_intent'));
  if (!id || !intent) return null;
  const fraudType = text(field(warning, 'fraud_type'));
  const actionable = field(warning, 'actionable');
  return {
    processor_reference: id,
    payment_reference: intent,
    fraud_type: fraudType && (FRAUD_TYPES as readonly string[]).includes(fraudType) ? (fraudType as FraudType) : 'misc',
    actionable: typeof actionable === 'boolean' ? actionable : null,
  };
}

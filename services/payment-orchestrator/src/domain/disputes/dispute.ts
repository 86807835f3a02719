import type { Mode } from '../payment/payment';

/**
 * A chargeback (or an inquiry that may become one) on a captured payment, as the processor reports it.
 * Responding with evidence happens in the processor's own dashboard (Adyen's Customer Area, Checkout.com's
 * Dashboard): this service shows where the dispute stands and tells the merchant when it moves.
 */
export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['needs_response', 'under_review', 'won', 'lost'];

export function isDisputeClosed(status: DisputeStatus): boolean {
  return status === 'won' || status === 'lost';
}

/**
 * What one processor notification says about a dispute, normalised by the processor's plugin (pure
 * mappers in processors/<id>/<id>.dispute.ts). `stage` orders the steps of a dispute's life (first
 * chargeback 1–3, second chargeback or arbitration 4–5), so a notification of an earlier stage that
 * arrives late does not move the dispute back.
 */
export interface DisputeSignal {
  /** The processor's identity of the dispute: the same on every notification about it (Adyen's dispute pspReference, Checkout.com's dsp_ id). */
  processor_reference: string;
  /**
   * The payment it disputes: the reference we sent with the authorization (our payment id), or, when the
   * processor's dispute names only its own payment, that processor reference (resolved through the
   * account's recorded capture notification).
   */
  payment_reference: string;
  status: DisputeStatus;
  stage: number;
  amount: number;
  currency_code: string;
  reason: string;
  /** The processor's event name, kept for the record. */
  event: string;
}

export interface Dispute {
  id: string;
  merchant_id: string;
  mode: Mode;
  version: number;
  payment_id: string;
  /** The processor account (or `simulator`) that reported it: processor references are unique per account. */
  processor: string;
  processor_reference: string;
  status: DisputeStatus;
  stage: number;
  amount: number;
  currency_code: string;
  reason: string;
  /** The notifications applied so far (their dedupe keys): a redelivery finds its own key and changes nothing. */
  applied: string[];
  created_at: string;
  updated_at: string;
}

export type DisputeChange = 'dispute.created' | 'dispute.updated' | 'dispute.closed';

export interface DisputeMove {
  dispute: Omit<Dispute, 'version'> & { version?: number };
  /** The events of the move, in order (a dispute first reported as decided is created, then closed). */
  changes: DisputeChange[];
}

/** Ranks a status inside one stage: a decision is not undone by a late "under review" of the same stage. */
const RANK: Record<DisputeStatus, number> = { needs_response: 0, under_review: 1, won: 2, lost: 2 };

/**
 * The dispute after a signal (pure). Null when the signal changes nothing: already applied (a
 * redelivery), of an earlier stage, or of the same stage but behind what the dispute already shows.
 * A later stage may reopen a decided dispute (Adyen's SECOND_CHARGEBACK after CHARGEBACK_REVERSED,
 * Checkout.com's arbitration after dispute_won): it is then updated or closed again.
 */
export function applyDisputeSignal(
  current: Dispute | null,
  signal: DisputeSignal,
  context: { id: string; merchantId: string; mode: Mode; paymentId: string; processor: string; dedupeKey: string; at: Date },
): DisputeMove | null {
  const at = context.at.toISOString();
  if (!current) {
    const dispute = {
      id: context.id,
      merchant_id: context.merchantId,
      mode: context.mode,
      payment_id: context.paymentId,
      processor: context.processor,
      processor_reference: signal.processor_reference,
      status: signal.status,
      stage: signal.stage,
      amount: signal.amount,
      currency_code: signal.currency_code,
      reason: signal.reason,
      applied: [context.dedupeKey],
      created_at: at,
      updated_at: at,
    };
    return { dispute, changes: isDisputeClosed(signal.status) ? ['dispute.created', 'dispute.closed'] : ['dispute.created'] };
  }
  if (current.applied.includes(context.dedupeKey)) return null;
  const applied = [...current.applied, context.dedupeKey];
  const behind = signal.stage < current.stage || (signal.stage === current.stage && RANK[signal.status] < RANK[current.status]);
  if (behind || signal.status === current.status) {
    // Nothing the merchant sees moves; the notification is still remembered, so its redelivery is known.
    return { dispute: { ...current, applied, stage: Math.max(current.stage, signal.stage) }, changes: [] };
  }
  const dispute = { ...current, applied, status: signal.status, stage: signal.stage, amount: signal.amount || current.amount, reason: current.reason, updated_at: at };
  return { dispute, changes: [isDisputeClosed(signal.status) ? 'dispute.closed' : 'dispute.updated'] };
}

/**
 * The reasons a merchant sees, whatever the processor's words (as Stripe names them): `fraudulent`,
 * `unrecognized`, `duplicate`, `subscription_canceled`, `product_not_received`, `product_unacceptable`,
 * `credit_not_processed`, `incorrect_amount`, `general`.
 */
export type DisputeReason =
  | 'fraudulent'
  | 'unrecognized'
  | 'duplicate'
  | 'subscription_canceled'
  | 'product_not_received'
  | 'product_unacceptable'
  | 'credit_not_processed'
  | 'incorrect_amount'
  | 'general';

const REASON_WORDS: Array<[RegExp, DisputeReason]> = [
  [/fraud|no cardholder authori[sz]ation|not authori[sz]ed/i, 'fraudulent'],
  [/unrecogni[sz]ed/i, 'unrecognized'],
  [/duplicate|paid by other means/i, 'duplicate'],
  [/cancel+ed recurring|canceled_recurring|recurring|subscription/i, 'subscription_canceled'],
  [/not received|non.?receipt|not provided|service_not_received/i, 'product_not_received'],
  [/not as described|defective|quality|counterfeit|misrepresent/i, 'product_unacceptable'],
  [/credit not|refund not|credit_not_issued|not credited/i, 'credit_not_processed'],
  [/incorrect amount|incorrect_amount|amount differ/i, 'incorrect_amount'],
];

/** A processor's reason (Checkout.com's category, Adyen's reason text) in the merchant's words; `general` when none fits. */
export function disputeReasonOf(text: string | null | undefined): DisputeReason {
  if (!text) return 'general';
  return REASON_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? 'general';
}

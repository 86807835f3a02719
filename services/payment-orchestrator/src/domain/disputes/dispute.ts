import { ConflictError, type Mode } from '@vaultline/core';

/**
 * A chargeback (or an inquiry that may become one) on a captured payment, as the processor reports it.
 * The merchant answers it here (POST /disputes/{id}/accept, POST /disputes/{id}/evidence), which this
 * service sends to the processor that reported it; the processor's notifications move it on.
 */
export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['needs_response', 'under_review', 'won', 'lost'];

function isDisputeClosed(status: DisputeStatus): boolean {
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
  /**
   * An inquiry (Stripe's warning_* disputes, Adyen's REQUEST_FOR_INFORMATION): the issuer asks, nothing is
   * debited yet and the payment may still be refunded. Absent: a chargeback.
   */
  inquiry?: boolean;
  /** When the processor stops taking evidence (Stripe's evidence_details.due_by, Adyen's defensePeriodEndsAt, Checkout.com's evidence_required_by), when it says. */
  evidence_due_by?: string | null;
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
  /** An inquiry that has not become a chargeback (absent on disputes stored before: a chargeback). */
  inquiry?: boolean;
  /** The last moment the processor takes evidence, when it said (absent or null: not said). */
  evidence_due_by?: string | null;
  /** When the merchant's evidence was submitted to the processor (POST /disputes/{id}/evidence). */
  evidence_submitted_at?: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a dispute holds of its payment's money: a chargeback that is open (needs_response, under_review:
 * the amount is debited or held while the issuer decides) or lost (taken) holds its amount; an inquiry
 * (nothing debited yet) and a won dispute hold nothing. The payment's `amount.disputed` is the sum, and a
 * payment with any holding dispute is not refunded (the cardholder would be paid twice).
 */
export function holdsFunds(dispute: Pick<Dispute, 'status' | 'inquiry'>): boolean {
  return !dispute.inquiry && dispute.status !== 'won';
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
      inquiry: signal.inquiry ?? false,
      evidence_due_by: signal.evidence_due_by ?? null,
      evidence_submitted_at: null,
      created_at: at,
      updated_at: at,
    };
    return { dispute, changes: isDisputeClosed(signal.status) ? ['dispute.created', 'dispute.closed'] : ['dispute.created'] };
  }
  if (current.applied.includes(context.dedupeKey)) return null;
  const applied = [...current.applied, context.dedupeKey];
  const behind = signal.stage < current.stage || (signal.stage === current.stage && RANK[signal.status] < RANK[current.status]);
  // Once a chargeback, always one: a late inquiry notice does not give the money back.
  const inquiry = Boolean(current.inquiry) && (behind || Boolean(signal.inquiry));
  const evidence_due_by = (!behind && signal.evidence_due_by) || current.evidence_due_by || null;
  const escalated = Boolean(current.inquiry) && !inquiry;
  if (behind || (signal.status === current.status && !escalated)) {
    // Nothing the merchant sees moves; the notification is still remembered, so its redelivery is known.
    return { dispute: { ...current, applied, inquiry, evidence_due_by, stage: Math.max(current.stage, signal.stage) }, changes: [] };
  }
  const dispute = {
    ...current,
    applied,
    inquiry,
    evidence_due_by,
    status: signal.status,
    stage: signal.stage,
    amount: signal.amount || current.amount,
    reason: current.reason,
    updated_at: at,
  };
  return { dispute, changes: [isDisputeClosed(signal.status) ? 'dispute.closed' : 'dispute.updated'] };
}

/** What a merchant does about a dispute: accept it (the processor closes it lost) or send evidence for it. */
export type DisputeAction = { kind: 'accept' } | { kind: 'evidence'; submit: boolean };

class DisputeClosed extends ConflictError {
  constructor(dispute: Pick<Dispute, 'status'>, action: DisputeAction['kind']) {
    super(
      'dispute_closed',
      `This dispute is ${dispute.status}: a decided dispute cannot be ${action === 'accept' ? 'accepted' : 'answered with evidence'} any more.`,
      { dispute_status: dispute.status },
    );
  }
}

class DisputeUnderReview extends ConflictError {
  constructor(action: DisputeAction['kind']) {
    super(
      'dispute_under_review',
      action === 'accept'
        ? 'Evidence for this dispute was submitted and the issuer is reviewing it: it can no longer be accepted.'
        : "Evidence for this dispute was submitted already (the processors take one submission): wait for the issuer's decision.",
      { dispute_status: 'under_review' },
    );
  }
}

class EvidenceDeadlinePassed extends ConflictError {
  constructor(dueBy: string) {
    super('evidence_deadline_passed', `The processor took evidence for this dispute until ${dueBy}; that time has passed.`, { evidence_due_by: dueBy });
  }
}

/**
 * Whether the merchant may do this now (pure): only a dispute that needs a response is accepted or
 * answered; a decided one is closed (409 dispute_closed), one under review has had its evidence (409
 * dispute_under_review), and evidence after `evidence_due_by` is refused (409 evidence_deadline_passed).
 */
export function assertActionAllowed(dispute: Dispute, action: DisputeAction, now: Date): void {
  if (isDisputeClosed(dispute.status)) throw new DisputeClosed(dispute, action.kind);
  if (dispute.status === 'under_review') throw new DisputeUnderReview(action.kind);
  if (action.kind === 'evidence' && dispute.evidence_due_by && Date.parse(dispute.evidence_due_by) < now.getTime())
    throw new EvidenceDeadlinePassed(dispute.evidence_due_by);
}

/**
 * The dispute after the processor took the merchant's action (pure): accepted → lost, with
 * dispute.updated and dispute.closed (a decision); evidence submitted → under_review with dispute.updated;
 * evidence only staged (submit false) → unchanged, no event. The stage stays: the processor's later
 * notifications of the same stage agree with it, a later stage moves it as always.
 */
export function disputeAfterAction(dispute: Dispute, action: DisputeAction, at: Date): DisputeMove {
  const now = at.toISOString();
  if (action.kind === 'accept') return { dispute: { ...dispute, status: 'lost', updated_at: now }, changes: ['dispute.updated', 'dispute.closed'] };
  if (!action.submit) return { dispute, changes: [] };
  return { dispute: { ...dispute, status: 'under_review', evidence_submitted_at: now, updated_at: now }, changes: ['dispute.updated'] };
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

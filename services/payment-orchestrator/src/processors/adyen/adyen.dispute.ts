import { disputeReasonOf, type DisputeSignal, type DisputeStatus } from '../../domain/disputes/dispute';
import { fraudTypeOf, type EarlyFraudWarningSignal } from '../../domain/fraud-warnings/early-fraud-warning';
import { adyenItemAmount, type AdyenNotificationItem } from './adyen.notification';

/**
 * Adyen's dispute notifications (standard notification, the same HMAC signature as every item): the item's
 * `pspReference` is the dispute's (the same on every event of one dispute), `originalReference` the disputed
 * payment's, `merchantReference` the payment's reference (our payment id). `additionalData.disputeStatus`
 * (Undefended, Pending, Responded, Lost, Accepted, Expired, Won), when present, says more than the event code;
 * `additionalData.defensePeriodEndsAt` (NOTIFICATION_OF_CHARGEBACK, CHARGEBACK) is when Adyen stops taking a
 * defense. REQUEST_FOR_INFORMATION is an inquiry (Adyen: no funds are deducted). NOTIFICATION_OF_FRAUD is
 * no dispute at all (Webhooks-v1.json: "the issuer sent a fraud alert notification … informational"):
 * it becomes an early fraud warning (adyenFraudWarningSignal).
 */
const EVENTS: Record<string, { stage: number; status: DisputeStatus; inquiry?: true }> = {
  REQUEST_FOR_INFORMATION: { stage: 1, status: 'needs_response', inquiry: true },
  NOTIFICATION_OF_CHARGEBACK: { stage: 1, status: 'needs_response' },
  INFORMATION_SUPPLIED: { stage: 2, status: 'under_review' },
  CHARGEBACK: { stage: 2, status: 'needs_response' },
  CHARGEBACK_REVERSED: { stage: 3, status: 'won' },
  ISSUER_RESPONSE_TIMEFRAME_EXPIRED: { stage: 3, status: 'won' },
  SECOND_CHARGEBACK: { stage: 4, status: 'lost' },
  PREARBITRATION_WON: { stage: 5, status: 'won' },
  PREARBITRATION_LOST: { stage: 5, status: 'lost' },
};

export const ADYEN_DISPUTE_EVENT_CODES = Object.keys(EVENTS);

/** Adyen's disputeStatus → ours, where it decides (a CHARGEBACK already lost, or defended and pending). */
const DISPUTE_STATUS: Record<string, DisputeStatus> = {
  undefended: 'needs_response',
  pending: 'under_review',
  responded: 'under_review',
  lost: 'lost',
  accepted: 'lost',
  expired: 'lost',
  won: 'won',
};

/** A dispute notification → the dispute signal (pure); null for any other event code. */
export function adyenDisputeSignal(item: AdyenNotificationItem): DisputeSignal | null {
  const known = EVENTS[item.eventCode];
  if (!known) return null;
  const reported = item.additionalData?.disputeStatus;
  const byStatus = typeof reported === 'string' ? DISPUTE_STATUS[reported.toLowerCase()] : undefined;
  // The disputeStatus refines an open stage (a CHARGEBACK already lost, or defended and pending); a decided stage stays decided.
  const decided = known.status === 'won' || known.status === 'lost';
  const status = decided ? (byStatus === 'won' || byStatus === 'lost' ? byStatus : known.status) : (byStatus ?? known.status);
  const reasonCode = item.additionalData?.chargebackReasonCode;
  const dueBy = instantOf(item.additionalData?.defensePeriodEndsAt);
  return {
    processor_reference: item.pspReference,
    payment_reference: item.merchantReference,
    status,
    stage: known.stage,
    amount: adyenItemAmount(item),
    currency_code: item.amount.currency,
    reason: disputeReasonOf(item.reason ?? (typeof reasonCode === 'string' ? reasonCode : null)),
    event: item.eventCode,
    ...(known.inquiry ? { inquiry: true } : {}),
    ...(dueBy ? { evidence_due_by: dueBy } : {}),
  };
}

/** An ISO 8601 time with its offset (Adyen's `2021-07-31T03:03:07+02:00`) as a UTC instant; null when absent or unreadable. */
function instantOf(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/**
 * NOTIFICATION_OF_FRAUD (Visa TC40, Mastercard SAFE, as Adyen relays them) → an early fraud warning
 * signal (pure); null for any other event code. The item's `pspReference` is the report's own,
 * `merchantReference` our payment id, `reason` the fraud type's name ("Fraudulent Use of Account Number"),
 * `additionalData.nofReasonCode` / `nofSchemeCode` the scheme's code. Adyen says nothing of whether the
 * payment can still be refunded: that is judged from the payment.
 */
export function adyenFraudWarningSignal(item: AdyenNotificationItem): EarlyFraudWarningSignal | null {
  if (item.eventCode !== 'NOTIFICATION_OF_FRAUD') return null;
  return { processor_reference: item.pspReference, payment_reference: item.merchantReference, fraud_type: fraudTypeOf(item.reason), actionable: null };
}

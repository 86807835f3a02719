import { disputeReasonOf, type DisputeSignal, type DisputeStatus } from '../../domain/disputes/dispute';
import { adyenItemAmount, type AdyenNotificationItem } from './adyen.notification';

/**
 * Adyen's dispute notifications (standard notification, the same HMAC signature as every item): the item's
 * `pspReference` is the dispute's (the same on every event of one dispute), `originalReference` the disputed
 * payment's, `merchantReference` the payment's reference (our payment id). `additionalData.disputeStatus`
 * (Undefended, Pending, Responded, Lost, Accepted, Expired, Won), when present, says more than the event code.
 */
const EVENTS: Record<string, { stage: number; status: DisputeStatus }> = {
  REQUEST_FOR_INFORMATION: { stage: 1, status: 'needs_response' },
  NOTIFICATION_OF_FRAUD: { stage: 1, status: 'needs_response' },
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
  return {
    processor_reference: item.pspReference,
    payment_reference: item.merchantReference,
    status,
    stage: known.stage,
    amount: adyenItemAmount(item),
    currency_code: item.amount.currency,
    reason: disputeReasonOf(item.reason ?? (typeof reasonCode === 'string' ? reasonCode : null)),
    event: item.eventCode,
  };
}

import { adyenDisputeSignal, adyenFraudWarningSignal, ADYEN_DISPUTE_EVENT_CODES } from './adyen.dispute';
import type { AdyenNotificationItem } from './adyen.notification';

const item = (eventCode: string, disputeStatus?: string): AdyenNotificationItem => ({
  amount: { value: 1250, currency: 'EUR' },
  eventCode,
  merchantAccountCode: 'ShopECOM',
  merchantReference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
  originalReference: 'QFQTPCQ8HXSKGKAB',
  pspReference: 'DSP9TQ4HRL5N8C3X',
  reason: 'Fraud',
  success: 'true',
  additionalData: { hmacSignature: 'x', ...(disputeStatus ? { disputeStatus, chargebackReasonCode: '10.4' } : {}) },
});

describe('Adyen dispute notifications', () => {
  it('when a dispute event arrives, then the dispute is named by its own pspReference and the payment by merchantReference', () => {
    expect(adyenDisputeSignal(item('NOTIFICATION_OF_CHARGEBACK', 'Undefended'))).toEqual({
      processor_reference: 'DSP9TQ4HRL5N8C3X',
      payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      status: 'needs_response',
      stage: 1,
      amount: 1250,
      currency_code: 'EUR',
      reason: 'fraudulent',
      event: 'NOTIFICATION_OF_CHARGEBACK',
    });
  });

  it.each([
    ['NOTIFICATION_OF_CHARGEBACK', undefined, 'needs_response', 1],
    ['CHARGEBACK', undefined, 'needs_response', 2],
    ['CHARGEBACK', 'Undefended', 'needs_response', 2],
    ['CHARGEBACK', 'Pending', 'under_review', 2],
    ['CHARGEBACK', 'Lost', 'lost', 2],
    ['CHARGEBACK', 'Accepted', 'lost', 2],
    ['CHARGEBACK_REVERSED', 'Won', 'won', 3],
    ['CHARGEBACK_REVERSED', 'Pending', 'won', 3],
    ['SECOND_CHARGEBACK', 'Lost', 'lost', 4],
    ['PREARBITRATION_WON', 'Won', 'won', 5],
    ['PREARBITRATION_LOST', 'Lost', 'lost', 5],
  ])('when %s arrives with disputeStatus %p, then the dispute is %s at stage %d', (code, disputeStatus, status, stage) => {
    expect(adyenDisputeSignal(item(code, disputeStatus))).toMatchObject({ status, stage });
  });

  it('when REQUEST_FOR_INFORMATION arrives, then it is an inquiry (Adyen deducts nothing for it), a chargeback notice is not', () => {
    expect(adyenDisputeSignal(item('REQUEST_FOR_INFORMATION'))).toMatchObject({ status: 'needs_response', stage: 1, inquiry: true });
    expect(adyenDisputeSignal(item('NOTIFICATION_OF_CHARGEBACK', 'Undefended'))).not.toHaveProperty('inquiry');
  });

  // Webhooks-v1.json (Adyen/adyen-openapi): DisputesNotificationAdditionalData.defensePeriodEndsAt, "When the defense
  // period ends", ISO 8601 with its offset (the CHARGEBACK example: 2021-07-31T03:03:07+02:00).
  it('when a chargeback carries additionalData.defensePeriodEndsAt, then the signal says until when evidence is taken, as a UTC instant', () => {
    const chargeback = item('CHARGEBACK', 'Undefended');
    chargeback.additionalData = { ...chargeback.additionalData, defensePeriodEndsAt: '2021-07-31T03:03:07+02:00', defendable: 'true' };
    expect(adyenDisputeSignal(chargeback)!.evidence_due_by).toBe('2021-07-31T01:03:07.000Z');
  });

  // Webhooks-v1.json: NOTIFICATION_OF_FRAUD "The issuer sent a fraud alert notification to schemes and to processors. Visa
  // calls them TC40 and Mastercard … SAFE. These are informational notifications": its example names the payment by
  // merchantReference and originalReference, the fraud type in `reason`, additionalData.nofReasonCode and nofSchemeCode.
  it('when NOTIFICATION_OF_FRAUD arrives, then it is no dispute but an early fraud warning named by its own pspReference, its type from the reason', () => {
    const fraud = {
      ...item('NOTIFICATION_OF_FRAUD'),
      reason: 'Fraudulent Use of Account Number',
      additionalData: { hmacSignature: 'x', nofReasonCode: '6', nofSchemeCode: 'visa' },
    };
    expect(adyenDisputeSignal(fraud)).toBeNull();
    expect(ADYEN_DISPUTE_EVENT_CODES).not.toContain('NOTIFICATION_OF_FRAUD');
    expect(adyenFraudWarningSignal(fraud)).toEqual({
      processor_reference: 'DSP9TQ4HRL5N8C3X',
      payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      fraud_type: 'unauthorized_use_of_card',
      actionable: null,
    });
    expect(adyenFraudWarningSignal({ ...fraud, reason: 'Card Reported Lost' })!.fraud_type).toBe('made_with_lost_card');
    expect(adyenFraudWarningSignal(item('NOTIFICATION_OF_CHARGEBACK'))).toBeNull();
  });

  it('when any other event arrives, then it is no dispute', () => {
    for (const code of ['AUTHORISATION', 'CAPTURE', 'CAPTURE_FAILED', 'REFUND', 'CANCELLATION']) expect(adyenDisputeSignal(item(code))).toBeNull();
    expect(ADYEN_DISPUTE_EVENT_CODES).toEqual(
      expect.arrayContaining([
        'NOTIFICATION_OF_CHARGEBACK',
        'CHARGEBACK',
        'CHARGEBACK_REVERSED',
        'SECOND_CHARGEBACK',
        'PREARBITRATION_WON',
        'PREARBITRATION_LOST',
      ]),
    );
  });
});

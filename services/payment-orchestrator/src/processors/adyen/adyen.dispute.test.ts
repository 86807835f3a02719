import { adyenDisputeSignal, ADYEN_DISPUTE_EVENT_CODES } from './adyen.dispute';
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

  it('when any other event arrives, then it is no dispute', () => {
    for (const code of ['AUTHORISATION', 'CAPTURE', 'CAPTURE_FAILED', 'REFUND', 'CANCELLATION']) expect(adyenDisputeSignal(item(code))).toBeNull();
    expect(ADYEN_DISPUTE_EVENT_CODES).toEqual(expect.arrayContaining(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_WON', 'PREARBITRATION_LOST']));
  });
});

import { checkoutDisputeSignal } from './checkout.dispute';

const webhook = (type: string, data: Record<string, unknown> = {}) => ({
  id: 'evt_1',
  type,
  data: {
    id: 'dsp_rbhwd2qrg13uhrp2newf',
    category: 'fraudulent',
    amount: 999,
    currency: 'gbp',
    reason_code: '10.4',
    payment_id: 'pay_1',
    payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
    ...data,
  },
});

describe('Checkout.com dispute webhooks', () => {
  it('when dispute_received arrives, then the dispute is its dsp_ id on the payment its payment_reference names', () => {
    expect(checkoutDisputeSignal(webhook('dispute_received'))).toEqual({
      processor_reference: 'dsp_rbhwd2qrg13uhrp2newf',
      payment_reference: '01a208ee-5f6c-74c8-b99c-a50679101e09',
      status: 'needs_response',
      stage: 1,
      amount: 999,
      currency_code: 'GBP',
      reason: 'fraudulent',
      event: 'dispute_received',
    });
  });

  it.each([
    ['dispute_evidence_required', 'needs_response'],
    ['dispute_evidence_submitted', 'under_review'],
    ['dispute_evidence_acknowledged_by_scheme', 'under_review'],
    ['dispute_won', 'won'],
    ['dispute_canceled', 'won'],
    ['dispute_resolved', 'won'],
    ['dispute_lost', 'lost'],
    ['dispute_accepted', 'lost'],
    ['dispute_expired', 'lost'],
    ['dispute_arbitration_sent_to_scheme', 'under_review'],
    ['dispute_arbitration_won', 'won'],
    ['dispute_arbitration_lost', 'lost'],
  ])('when %s arrives, then the dispute is %s', (type, status) => {
    expect(checkoutDisputeSignal(webhook(type))?.status).toBe(status);
  });

  it("when the category is one of Checkout.com's, then the reason is the merchant's word for it", () => {
    expect(checkoutDisputeSignal(webhook('dispute_received', { category: 'product_service_not_received' }))?.reason).toBe('product_not_received');
    expect(checkoutDisputeSignal(webhook('dispute_received', { category: 'canceled_recurring' }))?.reason).toBe('subscription_canceled');
  });

  it("when the webhook is a payment event or lacks the dispute's amount, then it is no dispute", () => {
    expect(checkoutDisputeSignal(webhook('payment_captured'))).toBeNull();
    expect(checkoutDisputeSignal({ type: 'dispute_received', data: { id: 'dsp_1' } })).toBeNull();
  });
});

import { createHmac } from 'node:crypto';
import { fromCheckoutWebhook, signCheckoutWebhook, verifyCheckoutWebhook } from './checkout.webhook';

const SECRET = 'whsec-checkout-1';
const raw = JSON.stringify({
  id: 'evt_az5sblvku4ge3dwpztvyizgcau',
  type: 'payment_captured',
  created_on: '2026-06-01T10:00:00Z',
  data: { id: 'pay_1', action_id: 'act_1', reference: 'p1', amount: 700, currency: 'EUR' },
});

describe('Checkout.com webhook signature', () => {
  it('when signed, then Cko-Signature is the hex HMAC-SHA256 of the raw body with the webhook secret', () => {
    expect(signCheckoutWebhook(raw, SECRET)).toBe(createHmac('sha256', SECRET).update(raw).digest('hex'));
  });

  it('when the signature matches the raw bytes, then it verifies (in either hex case); a changed byte, another secret, a missing or malformed header do not', () => {
    const signature = signCheckoutWebhook(raw, SECRET);
    expect(verifyCheckoutWebhook(Buffer.from(raw), signature, SECRET)).toBe(true);
    expect(verifyCheckoutWebhook(raw, signature.toUpperCase(), SECRET)).toBe(true);
    expect(verifyCheckoutWebhook(raw.replace('700', '701'), signature, SECRET)).toBe(false);
    expect(verifyCheckoutWebhook(raw, signature, 'another')).toBe(false);
    expect(verifyCheckoutWebhook(raw, undefined, SECRET)).toBe(false);
    expect(verifyCheckoutWebhook(raw, 'abc', SECRET)).toBe(false);
  });
});

describe('Checkout.com webhook events', () => {
  it('when payment_captured arrives, then it is a succeeded capture of the payment named by reference and id', () => {
    expect(fromCheckoutWebhook(JSON.parse(raw))).toEqual({
      kind: 'capture_succeeded',
      dedupe_key: 'checkout:evt_az5sblvku4ge3dwpztvyizgcau',
      payment_reference: 'p1',
      processor_reference: 'pay_1',
      capture_reference: 'act_1',
      amount: 700,
    });
  });

  it('when payment_capture_declined arrives, then it is a failed capture', () => {
    expect(
      fromCheckoutWebhook({
        id: 'evt_2',
        type: 'payment_capture_declined',
        data: { id: 'pay_1', action_id: 'act_1', reference: 'p1', response_code: '20005' },
      }),
    ).toEqual({
      kind: 'capture_failed',
      dedupe_key: 'checkout:evt_2',
      payment_reference: 'p1',
      processor_reference: 'pay_1',
      capture_reference: 'act_1',
      failure_reason: 'capture_failed',
    });
  });

  it('when payment_approved or payment_declined arrive, then they are authorization events; other types are ignored; a non-webhook body is null', () => {
    expect(fromCheckoutWebhook({ id: 'evt_3', type: 'payment_approved', data: { id: 'pay_1', reference: 'p1' } })).toMatchObject({
      kind: 'authorization_succeeded',
      processor_reference: 'pay_1',
    });
    expect(fromCheckoutWebhook({ id: 'evt_4', type: 'payment_declined', data: { id: 'pay_1', reference: 'p1', response_code: '20051' } })).toMatchObject({
      kind: 'authorization_failed',
      failure_reason: 'insufficient_funds',
    });
    expect(fromCheckoutWebhook({ id: 'evt_5', type: 'payment_pending', data: { id: 'pay_1' } })).toEqual({
      kind: 'ignored',
      dedupe_key: 'checkout:evt_5',
      event_type: 'payment_pending',
    });
    expect(fromCheckoutWebhook({ type: 'payment_captured' })).toBeNull();
  });
});

describe('Checkout.com refund and void webhooks', () => {
  it("when payment_refunded arrives, then it is a succeeded refund named by its action_id (the refund's reference at Checkout.com)", () => {
    expect(
      fromCheckoutWebhook({ id: 'evt_6', type: 'payment_refunded', data: { id: 'pay_1', action_id: 'act_r1', reference: 'r1', amount: 200, currency: 'EUR' } }),
    ).toEqual({
      kind: 'refund_succeeded',
      dedupe_key: 'checkout:evt_6',
      payment_reference: 'r1',
      processor_reference: 'pay_1',
      capture_reference: 'act_r1',
      amount: 200,
    });
  });

  it('when payment_refund_declined arrives, then the refund fails with refund_failed', () => {
    expect(fromCheckoutWebhook({ id: 'evt_7', type: 'payment_refund_declined', data: { id: 'pay_1', action_id: 'act_r1', reference: 'r1' } })).toMatchObject({
      kind: 'refund_failed',
      capture_reference: 'act_r1',
      failure_reason: 'refund_failed',
    });
  });

  it('when payment_voided or payment_void_declined arrive, then they confirm or refuse the void of the payment named by id', () => {
    expect(fromCheckoutWebhook({ id: 'evt_8', type: 'payment_voided', data: { id: 'pay_1', action_id: 'act_v1', reference: 'p1' } })).toEqual({
      kind: 'void_succeeded',
      dedupe_key: 'checkout:evt_8',
      payment_reference: 'p1',
      processor_reference: 'pay_1',
      capture_reference: 'act_v1',
    });
    expect(fromCheckoutWebhook({ id: 'evt_9', type: 'payment_void_declined', data: { id: 'pay_1', action_id: 'act_v1', reference: 'p1' } })).toMatchObject({
      kind: 'void_failed',
      failure_reason: 'void_failed',
    });
  });
});

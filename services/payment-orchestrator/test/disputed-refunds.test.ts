import { CREDENTIALS, useDisputeWorld } from './support/dispute-stand-ins';
import { MERCHANT, type Json } from './support/orchestrator-harness';
import { adyenNotification } from '../src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook } from '../src/processors/checkout/dev/checkout.stand-in';

/**
 * Issue #34, finding 3: a disputed payment could be refunded (with a dispute in needs_response a full refund
 * answered 201 and succeeded; when the dispute was lost the merchant had paid twice), and nothing said how
 * much of a payment a dispute held.
 */
const ctx = useDisputeWorld();

const get = async (path: string): Promise<Json> => (await ctx.h.call(MERCHANT, 'GET', path)).body;
const refund = (payment: Json, body: Record<string, unknown> = {}) => ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, body);
const checkoutDispute = (type: string, payment: Json, amount = 1250) =>
  ctx.world.deliverCheckout(
    checkoutWebhook(
      type,
      {
        id: 'dsp_heldamount01',
        category: 'fraudulent',
        amount,
        currency: 'EUR',
        payment_id: ctx.world.referenceOf('checkout', payment),
        payment_reference: payment.id,
      },
      CREDENTIALS.checkout.webhook_secret,
    ),
  );

describe('a refund while a chargeback holds the payment', () => {
  it('when a dispute needs a response, then a full refund answers 409 payment_disputed, nothing is sent to the processor, and the payment shows amount.disputed and amount.net', async () => {
    const payment = await ctx.world.capturedOn('checkout');
    expect((await get(`/payments/${payment.id}`)).amount).toEqual({ requested: 1250, authorized: 1250, captured: 1250, capturable: 0, disputed: 0, net: 1250 });
    // payment.captured says the same amounts as the API, disputed and net included.
    const captured = ctx.h.events.filter((e) => e.type === 'payment.captured' && (e.data as Json).payment_id === payment.id);
    expect(captured.map((e) => (e.data as Json).amount)).toEqual([
      { requested: 1250, authorized: 1250, captured: 1250, capturable: 0, disputed: 0, net: 1250 },
    ]);
    await checkoutDispute('dispute_received', payment);
    const sentBefore = ctx.standIns.checkout.refunds.length;

    const refused = await refund(payment);
    expect([refused.status, refused.body.code]).toEqual([409, 'payment_disputed']);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.detail).toMatch(/amount\.disputed 1250 EUR/);
    await ctx.h.settle();
    expect(ctx.standIns.checkout.refunds).toHaveLength(sentBefore);
    expect(ctx.h.events.filter((e) => e.type === 'refund.created')).toEqual([]);
    expect((await get(`/payments/${payment.id}`)).amount).toEqual({ requested: 1250, authorized: 1250, captured: 1250, capturable: 0, disputed: 1250, net: 0 });
  });

  it('when the dispute is lost, then a partial refund is refused too (the money is gone: refunding would pay twice); when it is won, the payment is refundable again and holds nothing', async () => {
    const lost = await ctx.world.capturedOn('checkout');
    await checkoutDispute('dispute_lost', lost, 1000);
    expect((await refund(lost, { amount: 100 })).body.code).toBe('payment_disputed');
    expect((await get(`/payments/${lost.id}`)).amount).toMatchObject({ disputed: 1000, net: 250 });

    const won = await ctx.world.capturedOn('adyen');
    const { notification } = ctx.standIns.adyen.dispute(ctx.world.referenceOf('adyen', won));
    await ctx.world.deliverAdyen(notification);
    expect((await refund(won, { amount: 100 })).body.code).toBe('payment_disputed');
    const { additionalData: _signed, ...fields } = notification.notificationItems[0]!.NotificationRequestItem;
    await ctx.world.deliverAdyen(adyenNotification({ ...fields, eventCode: 'CHARGEBACK_REVERSED' }, CREDENTIALS.adyen.hmac_key));
    expect((await get(`/payments/${won.id}`)).amount).toMatchObject({ disputed: 0, net: 1250 });
    expect((await refund(won, { amount: 100 })).status).toBe(201);
  });

  it('when a refund succeeded before the chargeback, then amount.net is captured − refunded − disputed (negative: the cardholder was paid twice until the dispute is decided)', async () => {
    const payment = await ctx.world.capturedOn('checkout');
    expect((await refund(payment, { amount: 500 })).status).toBe(201);
    await ctx.h.settle();
    const refunded = [...ctx.standIns.checkout.webhooks].reverse().find((w) => (JSON.parse(w.rawBody) as { type: string }).type === 'payment_refunded')!;
    await ctx.world.deliverCheckout(refunded);
    await checkoutDispute('dispute_received', payment);
    expect((await get(`/payments/${payment.id}`)).amount).toEqual({
      requested: 1250,
      authorized: 1250,
      captured: 1250,
      capturable: 0,
      refunded: 500,
      refund_pending: 0,
      disputed: 1250,
      net: -500,
    });
  });

  it('when the dispute is an inquiry (Stripe warning_needs_response: nothing debited, the charge still refundable), then the refund is taken and amount.disputed stays 0', async () => {
    const payment = await ctx.world.capturedOn('stripe');
    ctx.standIns.stripe.dispute(ctx.world.referenceOf('stripe', payment), 'fraudulent', 'warning_needs_response');
    expect(await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!)).toBe(200);
    expect((await get(`/payments/${payment.id}/disputes`)).data.map((d: Json) => [d.kind, d.status])).toEqual([['inquiry', 'needs_response']]);
    expect((await get(`/payments/${payment.id}`)).amount).toMatchObject({ disputed: 0, net: 1250 });
    expect((await refund(payment, { amount: 1250 })).status).toBe(201);
  });

  // The interleaving itself (a chargeback committing between a refund's read and its write) is pinned in src/domain/disputes/dispute-holds.test.ts.
  it('when refunds and a chargeback arrive at once, then each refund is taken (it committed first) or refused 409 payment_disputed, and the books agree with what was answered', async () => {
    const payment = await ctx.world.capturedOn('checkout');
    const [answers] = await Promise.all([
      Promise.all([refund(payment, { amount: 400 }), refund(payment, { amount: 400 })]),
      checkoutDispute('dispute_received', payment),
    ]);
    for (const answer of answers) expect(answer.status === 201 || answer.body.code === 'payment_disputed').toBe(true);
    expect((await get(`/payments/${payment.id}`)).amount.disputed).toBe(1250);
    expect((await get(`/payments/${payment.id}/refunds`)).data).toHaveLength(answers.filter((answer) => answer.status === 201).length);
    expect((await refund(payment, { amount: 1 })).body.code).toBe('payment_disputed');
  });
});

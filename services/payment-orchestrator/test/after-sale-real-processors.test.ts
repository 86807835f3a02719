import { ADYEN_TEST_CARDS, adyenNotification, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from '../src/processors/checkout/dev/checkout.stand-in';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { MERCHANT, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import { placeholderTransport } from './support/placeholder-transport';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const adyenCredentials = { api_key: 'AQE_after_sale_key', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const checkoutCredentials = { secret_key: 'sk_sbox_after_sale', processing_channel_id: 'pc_after1', webhook_secret: 'whsec_after0123456789abcdefghijklmnopq' };

let adyenPsp: AdyenStandIn;
let cko: CheckoutStandIn;
let h: Harness;
let card: string;

/** No forwarder here: this transport fills the placeholders with the test's card and sends to the stand-ins. */
const transport: ProcessorTransport = {
  forward: (request) =>
    placeholderTransport(
      { '*': { number: card, expiry_month: 3, expiry_year: 2030, security_code: '737' } },
      { integerExpiry: !request.url.endsWith('/v69/payments') },
    ).forward(request),
  send: (request) => placeholderTransport({}).send(request),
};

beforeAll(async () => {
  adyenPsp = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  cko = await startCheckoutStandIn({
    secretKey: checkoutCredentials.secret_key,
    processingChannelId: checkoutCredentials.processing_channel_id,
    webhookSecret: checkoutCredentials.webhook_secret,
  });
});
afterAll(async () => {
  await Promise.all([adyenPsp.stop(), cko.stop()]);
});
beforeEach(async () => {
  h = await startOrchestrator({
    transport,
    env: { FORWARD_EXTRA_DESTINATIONS: [`${adyenPsp.baseUrl}/v69/payments`, `${cko.baseUrl}/payments`].join(','), PROCESSOR_ALLOW_PRIVATE_URLS: 'true' },
  });
});
afterEach(async () => {
  await h.stop();
});

/** A processor account routed to by every payment, capturing as asked. */
async function routeToAccount(processor: 'adyen' | 'checkout', captureMode: 'automatic' | 'manual'): Promise<string> {
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
    processor,
    name: processor,
    credentials: processor === 'adyen' ? adyenCredentials : checkoutCredentials,
    settings: { base_url: processor === 'adyen' ? adyenPsp.baseUrl : cko.baseUrl },
  });
  expect(created.status).toBe(201);
  const name = `${processor}-${captureMode}`;
  const steps = [
    { kind: 'authorization', processor: created.body.id, fallback: [] },
    { kind: 'capture', processor: created.body.id },
  ];
  expect((await h.call(MERCHANT, 'POST', '/flows', { name, capture_mode: captureMode, steps })).status).toBe(201);
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).status).toBe(200);
  card = processor === 'adyen' ? ADYEN_TEST_CARDS.approved : CHECKOUT_TEST_CARDS.approved;
  return created.body.id;
}

const get = async (path: string): Promise<Json> => (await h.call(MERCHANT, 'GET', path)).body;
const deliverAdyen = async (account: string, notification: unknown) => {
  expect((await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(notification))).text).toBe('[accepted]');
  await h.settle();
};
const deliverCheckout = async (account: string, webhook: { rawBody: string; signature: string }) => {
  expect((await h.postPublic(`/processor-notifications/checkout/${account}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
  await h.settle();
};
const lastAdyenNotification = (eventCode: string) =>
  [...adyenPsp.notifications].reverse().find((n) => n.notificationItems[0]!.NotificationRequestItem.eventCode === eventCode)!;
const lastCheckoutWebhook = (type: string) => [...cko.webhooks].reverse().find((w) => (JSON.parse(w.rawBody) as { type: string }).type === type)!;

describe('cancel on real processors (stand-ins)', () => {
  it("when an Adyen authorization is canceled, then /cancels is sent with the void's idempotency key, the payment is canceling until the CANCELLATION notification, then canceled once", async () => {
    const account = await routeToAccount('adyen', 'manual');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('authorized');
    const canceling = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`);
    expect(canceling).toMatchObject({ status: 200, body: { status: 'canceling', cancellation_reason: 'requested_by_merchant' } });
    const sent = adyenPsp.cancels.at(-1)!;
    expect([sent.headers['idempotency-key'], sent.body]).toEqual([`${payment.id}:void`, { merchantAccount: 'ShopECOM', reference: payment.id }]);

    const confirmation = lastAdyenNotification('CANCELLATION');
    await deliverAdyen(account, confirmation);
    expect(await get(`/payments/${payment.id}`)).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
    await deliverAdyen(account, confirmation);
    expect(h.events.filter((e) => e.type === 'payment.canceled' && e.data.payment_id === payment.id)).toHaveLength(1);
    expect((await get(`/payments/${payment.id}/transactions`)).data.map((t: Json) => [t.kind, t.status])).toEqual([
      ['authorization', 'succeeded'],
      ['void', 'succeeded'],
    ]);
  });

  it('when Adyen cannot be reached for the void (503), then the payment stays canceling and the after-sale worker sends the void again 30 s later, with the same idempotency key', async () => {
    await routeToAccount('adyen', 'manual');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    const before = adyenPsp.cancels.length;
    adyenPsp.failNext(1);
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`)).body.status).toBe('canceling');
    expect(adyenPsp.cancels.length).toBe(before);
    await h.advance(29_000);
    expect(adyenPsp.cancels.length).toBe(before);
    await h.advance(1_000);
    expect(adyenPsp.cancels.slice(before).map((c) => c.headers['idempotency-key'])).toEqual([`${payment.id}:void`]);
    expect((await get(`/payments/${payment.id}`)).status).toBe('canceling');
  });

  it('when Adyen refuses the cancel (CANCELLATION success false), then the payment is authorized again and can be captured', async () => {
    const account = await routeToAccount('adyen', 'manual');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`);
    const item = lastAdyenNotification('CANCELLATION').notificationItems[0]!.NotificationRequestItem;
    const { additionalData: _signature, ...unsigned } = item;
    await deliverAdyen(account, adyenNotification({ ...unsigned, success: 'false', reason: 'Transaction already captured' }, HMAC_KEY));
    expect((await get(`/payments/${payment.id}`)).status).toBe('authorized');
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {})).body.status).toBe('capturing');
  });

  it('when a Checkout.com authorization is canceled, then /voids is sent with the Cko-Idempotency-Key and payment_voided settles it as canceled', async () => {
    const account = await routeToAccount('checkout', 'manual');
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/cancel`)).body.status).toBe('canceling');
    expect(cko.voids.at(-1)!.headers['cko-idempotency-key']).toBe(`${payment.id}:void`);
    await deliverCheckout(account, lastCheckoutWebhook('payment_voided'));
    expect(await get(`/payments/${payment.id}`)).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
  });
});

describe('refunds on real processors (stand-ins)', () => {
  it('when an Adyen payment is refunded, then /refunds carries the refund id and its own idempotency key, and the REFUND notification settles it; REFUNDED_REVERSED later fails it', async () => {
    const account = await routeToAccount('adyen', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    // Adyen captured it by itself: its CAPTURE notification confirms it.
    await deliverAdyen(account, lastAdyenNotification('CAPTURE'));
    expect((await get(`/payments/${payment.id}`)).status).toBe('captured');
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 500, reason: 'requested_by_customer' })).body;
    await h.settle();
    const sent = adyenPsp.refunds.at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(`${payment.id}:refund:${refund.id}`);
    expect(sent.body).toEqual({
      merchantAccount: 'ShopECOM',
      amount: { currency: 'EUR', value: 500 },
      reference: refund.id,
      merchantRefundReason: 'CUSTOMER REQUEST',
    });
    expect((await get(`/refunds/${refund.id}`)).status).toBe('pending');

    const notification = lastAdyenNotification('REFUND');
    await deliverAdyen(account, notification);
    // A redelivery (Adyen sends again until it reads [accepted]) changes nothing.
    await deliverAdyen(account, notification);
    expect((await get(`/refunds/${refund.id}`)).status).toBe('succeeded');
    expect((await get(`/payments/${payment.id}`)).amount).toMatchObject({ captured: 1250, refunded: 500 });

    const { additionalData: _signature, ...unsigned } = notification.notificationItems[0]!.NotificationRequestItem;
    await deliverAdyen(account, adyenNotification({ ...unsigned, eventCode: 'REFUNDED_REVERSED' }, HMAC_KEY));
    expect(await get(`/refunds/${refund.id}`)).toMatchObject({ status: 'failed', failure_reason: 'refund_reversed' });
    expect((await get(`/payments/${payment.id}`)).amount).toMatchObject({ refunded: 0 });
    expect(h.events.filter((e) => e.type.startsWith('refund.') && e.data.refund_id === refund.id).map((e) => e.type)).toEqual([
      'refund.created',
      'refund.succeeded',
      'refund.failed',
    ]);
  });

  it('when Adyen reports the refund failed (REFUND success false), then the refund fails and its amount is refundable again', async () => {
    const account = await routeToAccount('adyen', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    await deliverAdyen(account, lastAdyenNotification('CAPTURE'));
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).body;
    await h.settle();
    const { additionalData: _signature, ...unsigned } = lastAdyenNotification('REFUND').notificationItems[0]!.NotificationRequestItem;
    await deliverAdyen(account, adyenNotification({ ...unsigned, success: 'false', reason: 'Insufficient balance on payment' }, HMAC_KEY));
    expect(await get(`/refunds/${refund.id}`)).toMatchObject({ status: 'failed', failure_reason: 'refund_failed' });
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1250 })).status).toBe(201);
  });

  it('when a Checkout.com payment is refunded, then /refunds answers 202 and payment_refunded settles the refund', async () => {
    const account = await routeToAccount('checkout', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    await deliverCheckout(account, lastCheckoutWebhook('payment_captured'));
    expect((await get(`/payments/${payment.id}`)).status).toBe('captured');
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 300 })).body;
    await h.settle();
    const sent = cko.refunds.at(-1)!;
    expect([sent.headers['cko-idempotency-key'], sent.body]).toEqual([`${payment.id}:refund:${refund.id}`, { amount: 300, reference: refund.id }]);
    await deliverCheckout(account, lastCheckoutWebhook('payment_refunded'));
    expect((await get(`/refunds/${refund.id}`)).status).toBe('succeeded');
    expect((await get(`/payments/${payment.id}`)).amount).toMatchObject({ refunded: 300 });
  });
});

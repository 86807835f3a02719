import { ADYEN_TEST_CARDS, adyenNotification, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from '../src/processors/checkout/dev/checkout.stand-in';
import { STRIPE_ACCOUNT_DEFAULT_VERSION, STRIPE_TEST_CARDS, startStripeStandIn, type StripeStandIn } from '../src/processors/stripe/dev/stripe.stand-in';
import { STRIPE_API_VERSION } from '../src/processors/stripe/stripe.api-version';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { MERCHANT, recurring, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import { placeholderTransport } from './support/placeholder-transport';

/**
 * Issue 34, finding 5: what the processors say stays what the payments say. Every Stripe call is made in one
 * pinned API version (an account whose default is older still gets latest_charge); a refund left pending
 * is asked about at its processor on a backoff until it is final (Stripe GET /v1/refunds/{id}, Checkout.com
 * the payment's actions; Adyen has nothing to ask, its notifications tell); an automatic capture counts as
 * authorized until the processor confirms it, so Adyen's CAPTURE_FAILED fails it.
 */
const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const adyenCredentials = { api_key: 'AQE_honest_key_value', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const checkoutCredentials = { secret_key: 'sk_sbox_honest_key', processing_channel_id: 'pc_honest1', webhook_secret: 'whsec_honest0123456789abcdefghijklmnop' };
const stripeCredentials = { secret_key: 'sk_test_honestKey7731', webhook_secret: 'whsec_honestSigning0123456789abcdefghi' };

let stripe: StripeStandIn;
let adyen: AdyenStandIn;
let cko: CheckoutStandIn;
let h: Harness;
let card: string;

const transport: ProcessorTransport = {
  forward: (request) =>
    placeholderTransport(
      { '*': { number: card, expiry_month: 3, expiry_year: 2030, security_code: '737' } },
      { integerExpiry: request.url.startsWith(cko.baseUrl) },
    ).forward(request),
  send: (request) => placeholderTransport({}).send(request),
};

beforeAll(async () => {
  stripe = await startStripeStandIn({ secretKey: stripeCredentials.secret_key, webhookSecret: stripeCredentials.webhook_secret });
  adyen = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  cko = await startCheckoutStandIn({
    secretKey: checkoutCredentials.secret_key,
    processingChannelId: checkoutCredentials.processing_channel_id,
    webhookSecret: checkoutCredentials.webhook_secret,
  });
});
afterAll(async () => {
  await Promise.all([stripe.stop(), adyen.stop(), cko.stop()]);
});
beforeEach(async () => {
  stripe.refundWebhooks = true;
  stripe.settlePendingRefunds = true;
  h = await startOrchestrator({
    transport,
    env: {
      FORWARD_EXTRA_DESTINATIONS: [`${stripe.baseUrl}/v1/payment_intents`, `${adyen.baseUrl}/v69/payments`, `${cko.baseUrl}/payments`].join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    },
  });
});
afterEach(async () => {
  await h.stop();
});

const CREDENTIALS = { stripe: stripeCredentials, adyen: adyenCredentials, checkout: checkoutCredentials };

async function routeTo(processor: 'stripe' | 'adyen' | 'checkout', captureMode: 'automatic' | 'manual'): Promise<string> {
  const baseUrl = processor === 'stripe' ? stripe.baseUrl : processor === 'adyen' ? adyen.baseUrl : cko.baseUrl;
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
    processor,
    name: processor,
    credentials: CREDENTIALS[processor],
    settings: { base_url: baseUrl },
  });
  expect(created.status).toBe(201);
  const name = `${processor}-${captureMode}-${Math.random().toString(36).slice(2, 8)}`;
  const steps = [
    { kind: 'authorization', processor: created.body.id },
    { kind: 'capture', processor: created.body.id },
  ];
  expect((await h.call(MERCHANT, 'POST', '/flows', { name, capture_mode: captureMode, steps })).status).toBe(201);
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).status).toBe(200);
  return created.body.id;
}

const get = async (payment: Json): Promise<Json> => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
const getRefund = async (refund: Json): Promise<Json> => (await h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body;
const transactions = async (payment: Json) =>
  (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.status, t.failure_reason]);
const paymentEvents = (payment: Json) => h.events.filter((e) => e.type.startsWith('payment.') && e.data.payment_id === payment.id).map((e) => e.type);
const refundQuestions = (refundReference: string) => stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/refunds/${refundReference}`).length;

describe('Stripe: one pinned API version', () => {
  it('when a payment is authorized, captured in parts, refunded and its refund asked about, then every call to Stripe carries Stripe-Version 2024-06-20', async () => {
    card = STRIPE_TEST_CARDS.approved;
    await routeTo('stripe', 'manual');
    const before = stripe.requests.length;
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    expect(payment.status).toBe('authorized');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 500, currency_code: 'EUR', final_capture: false });
    await h.settle();
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 500, currency_code: 'EUR' });
    await h.settle();
    expect(await get(payment)).toMatchObject({ status: 'captured', amount: { captured: 1000, capturable: 0 } });
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 300 });
    await h.settle();
    const made = stripe.requests.slice(before);
    expect(made.map((r) => `${r.method} ${r.path.replace(/(pi|re)_[A-Za-z0-9]+/, '{id}')}`)).toEqual([
      'POST /v1/payment_intents',
      'POST /v1/payment_intents/{id}/capture',
      'POST /v1/payment_intents/{id}/capture',
      'POST /v1/refunds',
    ]);
    expect(new Set(made.map((r) => r.version))).toEqual(new Set([STRIPE_API_VERSION]));
  });

  it(`when the Stripe account's default version is older than 2022-11-15 (${STRIPE_ACCOUNT_DEFAULT_VERSION}: charges listed, no latest_charge), then a subsequent recurring payment still names the first charge's network transaction id`, async () => {
    card = STRIPE_TEST_CARDS.approved;
    await routeTo('stripe', 'automatic');
    const initial = await h.payOneOff(MERCHANT, '424242******4242', recurring(), '/payments/recurring');
    expect(initial.status).toBe('captured');
    const subsequent = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      { amount: 1250, currency_code: 'EUR' },
      { 'X-Test-Now': '2026-07-15T10:00:00Z' },
    );
    expect(subsequent.status).toBe(200);
    await h.settle();
    expect(await get(subsequent.body)).toMatchObject({ status: 'captured' });
    const first = stripe.intents.find((intent) => intent.fields['metadata[payment_id]'] === initial.id)!;
    const firstCharge = stripe.charges.get(first.object.latest_charge as string)! as { payment_method_details: { card: { network_transaction_id: string } } };
    const sent = stripe.intents.find((intent) => intent.fields['metadata[payment_id]'] === subsequent.body.id)!;
    expect(sent.fields).toMatchObject({
      off_session: 'true',
      'payment_method_options[card][mit_exemption][network_transaction_id]': firstCharge.payment_method_details.card.network_transaction_id,
    });
  });
});

describe('pending refunds asked about at the processor until final', () => {
  it('when a Stripe refund stays pending and no webhook tells of it, then GET /v1/refunds/{id} asks after 5 s, 10 s more, 20 s more…, and once Stripe says succeeded the refund and the payment say so', async () => {
    card = STRIPE_TEST_CARDS.refundPending;
    stripe.refundWebhooks = false;
    stripe.settlePendingRefunds = false;
    await routeTo('stripe', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '400000******7726');
    expect(payment.status).toBe('captured');
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 400 })).body;
    await h.settle();
    const reference = stripe.refunds.at(-1)!.object.id as string;
    expect([(await getRefund(refund)).status, refundQuestions(reference)]).toEqual(['pending', 0]);

    await h.advance(5_000);
    expect([(await getRefund(refund)).status, refundQuestions(reference)]).toEqual(['pending', 1]);
    await h.advance(5_000);
    expect(refundQuestions(reference)).toBe(1);
    await h.advance(5_000);
    expect(refundQuestions(reference)).toBe(2);
    await h.advance(20_000);
    expect(refundQuestions(reference)).toBe(3);

    stripe.settleRefund(reference, 'succeeded');
    await h.advance(40_000);
    expect(refundQuestions(reference)).toBe(4);
    expect(await getRefund(refund)).toMatchObject({ status: 'succeeded' });
    expect((await get(payment)).amount).toMatchObject({ captured: 1250, refunded: 400 });
    expect(h.events.filter((e) => e.type.startsWith('refund.') && e.data.refund_id === refund.id).map((e) => e.type)).toEqual([
      'refund.created',
      'refund.succeeded',
    ]);
    // Final: never asked again.
    await h.advance(6 * 60 * 60_000);
    expect(refundQuestions(reference)).toBe(4);
  });

  it('when Stripe reports the pending refund failed, then polling fails it and its amount is refundable again', async () => {
    card = STRIPE_TEST_CARDS.refundPending;
    stripe.refundWebhooks = false;
    stripe.settlePendingRefunds = false;
    await routeTo('stripe', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '400000******7726');
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).body;
    await h.settle();
    stripe.settleRefund(stripe.refunds.at(-1)!.object.id as string, 'failed');
    await h.advance(5_000);
    expect(await getRefund(refund)).toMatchObject({ status: 'failed', failure_reason: 'refund_failed' });
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1250 })).status).toBe(201);
  });

  it("when a Checkout.com refund's payment_refunded webhook never comes, then the payment's actions are asked (GET /payments/{id}/actions) and the Refund action settles it", async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    await routeTo('checkout', 'manual');
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.advance(5 * 60_000);
    expect((await get(payment)).status).toBe('captured');
    cko.holdRefunds = true;
    try {
      const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 250 })).body;
      await h.settle();
      await h.advance(60_000);
      // Not processed yet at Checkout.com: no Refund action listed, still pending.
      expect((await getRefund(refund)).status).toBe('pending');
      cko.processRefunds();
      await h.advance(120_000);
      expect(await getRefund(refund)).toMatchObject({ status: 'succeeded' });
      expect((await get(payment)).amount).toMatchObject({ refunded: 250 });
    } finally {
      cko.holdRefunds = false;
    }
  });

  it('when an Adyen refund is pending, then nothing is asked of Adyen (it offers no endpoint for it): its REFUND notification settles it, however late', async () => {
    card = ADYEN_TEST_CARDS.approved;
    const account = await routeTo('adyen', 'manual');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(adyen.notifications.at(-1)));
    await h.settle();
    const refund = (await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 100 })).body;
    await h.settle();
    const notification = adyen.notifications.at(-1)!;
    expect(notification.notificationItems[0]!.NotificationRequestItem.eventCode).toBe('REFUND');
    await h.advance(24 * 60 * 60_000);
    expect((await getRefund(refund)).status).toBe('pending');
    await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(notification));
    await h.settle();
    expect((await getRefund(refund)).status).toBe('succeeded');
  });
});

describe('an automatic capture counts as authorized until the processor confirms it', () => {
  it('when Adyen authorizes an automatic-capture payment, then it stays processing with amount.authorized and no capture transaction; CAPTURE_FAILED then fails it (capture_failed), with payment.failed', async () => {
    card = ADYEN_TEST_CARDS.approved;
    adyen.automaticCaptures = 'fail';
    try {
      const account = await routeTo('adyen', 'automatic');
      const payment = await h.payOneOff(MERCHANT, '411111******1111');
      expect(payment).toMatchObject({ status: 'processing', amount: { requested: 1250, authorized: 1250, capturable: 0 } });
      expect(payment.amount).not.toHaveProperty('captured');
      expect(await transactions(payment)).toEqual([['authorization', 'succeeded', null]]);

      const failed = adyen.notifications.at(-1)!;
      expect(failed.notificationItems[0]!.NotificationRequestItem).toMatchObject({ eventCode: 'CAPTURE_FAILED', merchantReference: payment.id });
      expect((await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(failed))).text).toBe('[accepted]');
      await h.settle();
      expect(await get(payment)).toMatchObject({ status: 'failed', failure_reason: 'capture_failed' });
      expect(await transactions(payment)).toEqual([
        ['authorization', 'succeeded', null],
        ['capture', 'failed', 'capture_failed'],
      ]);
      expect(paymentEvents(payment)).toEqual(['payment.processing', 'payment.failed']);
    } finally {
      adyen.automaticCaptures = 'succeed';
    }
  });

  it("when Adyen's CAPTURE notification of its own capture arrives (before or after the answer), then the payment is captured", async () => {
    card = ADYEN_TEST_CARDS.approved;
    const account = await routeTo('adyen', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('processing');
    const capture = adyen.notifications.at(-1)!;
    expect(capture.notificationItems[0]!.NotificationRequestItem).toMatchObject({
      eventCode: 'CAPTURE',
      success: 'true',
      originalReference: adyen.payments.at(-1)!.pspReference,
    });
    await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(capture));
    await h.settle();
    expect(await get(payment)).toMatchObject({ status: 'captured', amount: { authorized: 1250, captured: 1250 } });
    expect(paymentEvents(payment)).toEqual(['payment.processing', 'payment.captured']);

    // Delivered before the authorization's answer was stored: found when the capture step looks.
    const early = await h.call(MERCHANT, 'POST', '/payments/one-off', { amount: 990, currency_code: 'EUR', reference: 'early', source: { type: 'vaultline' } });
    adyen.deliver = (rawBody) => h.postPublic(`/processor-notifications/adyen/${account}`, rawBody);
    try {
      await h.submitCard(early.body, '411111******1111');
      await h.settle();
      await adyen.delivered();
      await h.settle();
      expect((await get(early.body)).status).toBe('captured');
    } finally {
      adyen.deliver = null;
    }
  });

  it('when a Stripe automatic-capture payment is authorized and no webhook came, then Stripe is asked (the PaymentIntent succeeded: captured) before the payment says captured', async () => {
    card = STRIPE_TEST_CARDS.approved;
    await routeTo('stripe', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    expect(payment).toMatchObject({ status: 'captured', amount: { authorized: 1250, captured: 1250 } });
    const intent = stripe.intents.find((i) => i.fields['metadata[payment_id]'] === payment.id)!;
    expect(stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.id}`)).toHaveLength(1);
  });

  it('when a notification of another account names an automatic-capture payment, then it confirms nothing', async () => {
    card = ADYEN_TEST_CARDS.approved;
    await routeTo('adyen', 'automatic');
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    const other = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'other',
      credentials: adyenCredentials,
      settings: { base_url: adyen.baseUrl },
    });
    const item = adyen.notifications.at(-1)!.notificationItems[0]!.NotificationRequestItem;
    const { additionalData: _signature, ...unsigned } = item;
    await h.postPublic(`/processor-notifications/adyen/${other.body.id}`, JSON.stringify(adyenNotification(unsigned, HMAC_KEY)));
    await h.settle();
    expect((await get(payment)).status).toBe('processing');
  });
});

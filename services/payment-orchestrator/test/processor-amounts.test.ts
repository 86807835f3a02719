import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from '../src/processors/checkout/dev/checkout.stand-in';
import { STRIPE_TEST_CARDS, startStripeStandIn, type StripeStandIn } from '../src/processors/stripe/dev/stripe.stand-in';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { MERCHANT, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import { placeholderTransport } from './support/placeholder-transport';

/*
 * Issue #34, finding 1: the processors' mappers sent the API's amount unchanged and nothing checked what a
 * processor takes. Here each processor's stand-in receives the amount in its own unit, an amount a
 * processor cannot take is refused before anything is sent (422 amount_not_supported naming its rule),
 * and a flow passes over a processor that cannot take the amount to the next one of the step.
 */

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const CREDENTIALS = {
  adyen: { api_key: 'AQE_amounts_key', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY },
  checkout: { secret_key: 'sk_sbox_amounts', processing_channel_id: 'pc_amounts1', webhook_secret: 'whsec_amounts0123456789abcdefghijklmno' },
  stripe: { secret_key: 'sk_test_amountsStripeKey', webhook_secret: 'whsec_amountsStripe0123456789abcdefghi' },
};
type Processor = keyof typeof CREDENTIALS;

let adyenPsp: AdyenStandIn;
let cko: CheckoutStandIn;
let stripePsp: StripeStandIn;
let h: Harness;

const CARDS: Record<Processor, string> = { adyen: ADYEN_TEST_CARDS.approved, checkout: CHECKOUT_TEST_CARDS.approved, stripe: STRIPE_TEST_CARDS.approved };
const transport: ProcessorTransport = {
  forward: (request) => {
    const processor: Processor = request.url.endsWith('/v69/payments') ? 'adyen' : request.url.endsWith('/v1/payment_intents') ? 'stripe' : 'checkout';
    return placeholderTransport(
      { '*': { number: CARDS[processor], expiry_month: 3, expiry_year: 2030, security_code: '737' } },
      { integerExpiry: processor !== 'adyen' },
    ).forward(request);
  },
  send: (request) => placeholderTransport({}).send(request),
};

beforeAll(async () => {
  adyenPsp = await startAdyenStandIn({ apiKey: CREDENTIALS.adyen.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  cko = await startCheckoutStandIn({
    secretKey: CREDENTIALS.checkout.secret_key,
    processingChannelId: CREDENTIALS.checkout.processing_channel_id,
    webhookSecret: CREDENTIALS.checkout.webhook_secret,
  });
  stripePsp = await startStripeStandIn({ secretKey: CREDENTIALS.stripe.secret_key, webhookSecret: CREDENTIALS.stripe.webhook_secret });
});
afterAll(async () => {
  await Promise.all([adyenPsp.stop(), cko.stop(), stripePsp.stop()]);
});
beforeEach(async () => {
  adyenPsp.deliver = null;
  h = await startOrchestrator({
    transport,
    env: {
      FORWARD_EXTRA_DESTINATIONS: [`${adyenPsp.baseUrl}/v69/payments`, `${cko.baseUrl}/payments`, `${stripePsp.baseUrl}/v1/payment_intents`].join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    },
  });
});
afterEach(async () => {
  await h.stop();
});

const BASE_URLS = (): Record<Processor, string> => ({ adyen: adyenPsp.baseUrl, checkout: cko.baseUrl, stripe: stripePsp.baseUrl });

async function account(processor: Processor): Promise<string> {
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
    processor,
    name: processor,
    credentials: CREDENTIALS[processor],
    settings: { base_url: BASE_URLS()[processor] },
  });
  expect(created.status).toBe(201);
  // Adyen captures an automatic-capture payment by itself and notifies CAPTURE, which the payment waits for.
  if (processor === 'adyen') adyenPsp.deliver = (rawBody) => h.postPublic(`/processor-notifications/adyen/${created.body.id}`, rawBody);
  return created.body.id;
}

/** Pays as the harness does, then lets Adyen's notifications (an automatic capture's CAPTURE) arrive. */
async function payOneOff(...args: Parameters<Harness['payOneOff']>): Promise<Json> {
  const payment = await h.payOneOff(...args);
  await adyenPsp.delivered();
  await h.settle();
  return (await h.call(args[0], 'GET', `/payments/${payment.id}`)).body;
}

/** A flow whose authorization goes to `authorizer`, then to `fallback` in order; the matrix's default, or the flow of a scheme's rule. */
async function flow(name: string, captureMode: 'automatic' | 'manual', authorizer: string, fallback: string[] = []): Promise<void> {
  const steps = [
    { kind: 'authorization', processor: authorizer, fallback },
    { kind: 'capture', processor: authorizer },
  ];
  expect((await h.call(MERCHANT, 'POST', '/flows', { name, capture_mode: captureMode, steps })).status).toBe(201);
}
const routeTo = async (defaultFlow: string, rules: unknown[] = []) =>
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: defaultFlow, rules })).status).toBe(200);

const get = async (path: string): Promise<Json> => (await h.call(MERCHANT, 'GET', path)).body;
const sentCounts = () => ({ adyen: adyenPsp.payments.length, checkout: cko.payments.length, stripe: stripePsp.intents.length });

describe('amounts at the processors (stand-ins)', () => {
  it('when ISK 2790 is paid through Adyen, then Adyen is sent 279000 (two decimals) and the payment shows 2790 captured', async () => {
    await flow('adyen', 'automatic', await account('adyen'));
    await routeTo('adyen');
    const payment = await payOneOff(MERCHANT, '411111******1111', { amount: 2790, currency_code: 'ISK' });
    expect([payment.status, payment.amount]).toEqual([
      'captured',
      { requested: 2790, authorized: 2790, captured: 2790, capturable: 0, disputed: 0, net: 2790 },
    ]);
    expect(adyenPsp.payments.at(-1)!.body).toMatchObject({ reference: payment.id, amount: { currency: 'ISK', value: 279000 } });
  });

  it('when MGA 150000 is paid through Stripe, then Stripe is sent 1500 (zero-decimal) and a refund of MGA 50000 goes as 500', async () => {
    await flow('stripe', 'automatic', await account('stripe'));
    await routeTo('stripe');
    const payment = await payOneOff(MERCHANT, '424242******4242', { amount: 150000, currency_code: 'MGA' });
    expect([payment.status, payment.amount.captured]).toEqual(['captured', 150000]);
    expect(stripePsp.intents.at(-1)!.fields).toMatchObject({ amount: '1500', currency: 'mga' });
    const refund = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 50000, currency_code: 'MGA' });
    expect(refund.status).toBe(201);
    await h.settle();
    expect(stripePsp.refunds.at(-1)!.fields).toMatchObject({ amount: '500' });
  });

  it('when KWD 1234 is asked of a flow whose only processor is Checkout.com, then the payment is refused 422 amount_not_supported naming the last-digit rule; no payment, nothing sent', async () => {
    await flow('checkout', 'automatic', await account('checkout'));
    await routeTo('checkout');
    const before = sentCounts();
    const refused = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ amount: 1234, currency_code: 'KWD' }));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'amount_not_supported', field: 'amount' });
    expect(refused.body.detail).toBe(
      'No processor of the flow checkout can take this amount. Checkout.com cannot take amount 1234 (KWD 1.234): Checkout.com needs the last digit of amounts divided by 1000 to be 0, so the amount must be a multiple of 10 in minor units, such as 1230 or 1240.',
    );
    expect((await get('/payments?limit=100')).data).toEqual([]);
    expect(sentCounts()).toEqual(before);
  });

  it('when KWD 1234 goes to a flow of Stripe then Adyen, then Stripe is passed over (nothing sent, no transaction) and Adyen authorizes it', async () => {
    const stripe = await account('stripe');
    const adyen = await account('adyen');
    await flow('stripe-then-adyen', 'automatic', stripe, [adyen]);
    await routeTo('stripe-then-adyen');
    const before = sentCounts();
    const payment = await payOneOff(MERCHANT, '411111******1111', { amount: 1234, currency_code: 'KWD' });
    expect([payment.status, payment.amount.captured]).toEqual(['captured', 1234]);
    expect((await get(`/payments/${payment.id}/transactions`)).data.map((t: Json) => [t.processor, t.kind, t.status])).toEqual([
      [adyen, 'authorization', 'succeeded'],
      [adyen, 'capture', 'succeeded'],
    ]);
    expect(sentCounts()).toEqual({ ...before, adyen: before.adyen + 1 });
    expect(adyenPsp.payments.at(-1)!.body).toMatchObject({ amount: { currency: 'KWD', value: 1234 } });
  });

  it('when a rule picks a flow again once the card is known and none of its processors can take the amount, then the payment fails amount_not_supported with no transaction and nothing sent', async () => {
    await flow('adyen', 'automatic', await account('adyen'));
    await flow('checkout', 'automatic', await account('checkout'));
    await routeTo('adyen', [{ name: 'mastercard-to-checkout', when: { scheme: ['MASTERCARD'] }, flow: 'checkout' }]);
    const before = sentCounts();
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ amount: 1234, currency_code: 'KWD' }));
    expect([created.status, created.body.flow]).toEqual([200, 'adyen']);
    await h.submitCard(created.body, '555555******4444', { scheme: 'MASTERCARD' });
    await h.settle();
    const payment = await get(`/payments/${created.body.id}`);
    expect([payment.status, payment.failure_reason, payment.flow]).toEqual(['failed', 'amount_not_supported', 'checkout']);
    expect((await get(`/payments/${payment.id}/transactions`)).data).toEqual([]);
    expect(sentCounts()).toEqual(before);
  });

  it("when a charge is below Stripe's minimum for its currency (EUR 0.49), then it is refused naming the minimum", async () => {
    await flow('stripe', 'automatic', await account('stripe'));
    await routeTo('stripe');
    const refused = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ amount: 49, currency_code: 'EUR' }));
    expect([refused.status, refused.body.code]).toEqual([422, 'amount_not_supported']);
    expect(refused.body.detail).toContain('its minimum charge in EUR is 0.50 (50 in minor units)');
  });

  it('when a partial capture of a Checkout.com KWD payment breaks the last-digit rule, then it is refused 422 amount_not_supported and the payment stays authorized; KWD 2.340 is captured', async () => {
    await flow('checkout-manual', 'manual', await account('checkout'));
    await routeTo('checkout-manual');
    const payment = await payOneOff(MERCHANT, '424242******4242', { amount: 5000, currency_code: 'KWD' });
    expect(payment.status).toBe('authorized');
    const refused = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 2345, currency_code: 'KWD' });
    expect([refused.status, refused.body.code]).toEqual([422, 'amount_not_supported']);
    expect((await get(`/payments/${payment.id}`)).status).toBe('authorized');
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 2340, currency_code: 'KWD' })).body.status).toBe('capturing');
  });

  it('when a refund of a Stripe KWD payment breaks the last-digit rule, then it is refused 422 amount_not_supported, no refund is made and nothing sent; KWD 1.000 is refunded', async () => {
    await flow('stripe', 'automatic', await account('stripe'));
    await routeTo('stripe');
    const payment = await payOneOff(MERCHANT, '424242******4242', { amount: 5000, currency_code: 'KWD' });
    expect(payment.status).toBe('captured');
    const before = stripePsp.refunds.length;
    const refused = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1001, currency_code: 'KWD' });
    expect([refused.status, refused.body.code]).toEqual([422, 'amount_not_supported']);
    expect((await get(`/refunds?payment_id=${payment.id}`)).data).toEqual([]);
    expect(stripePsp.refunds.length).toBe(before);
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 1000, currency_code: 'KWD' })).status).toBe(201);
  });

  it('when an amount has more than twelve digits, then the API refuses it 422 amount_too_large before any flow is chosen', async () => {
    const refused = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ amount: 9_007_199_254_740_991 }));
    expect(refused.body).toMatchObject({ status: 422, code: 'amount_too_large', field: 'amount' });
    expect((await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ amount: 999_999_999_999 }))).status).toBe(200);
  });
});

import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  CHECKOUT_TEST_CARDS,
  startCheckoutStandIn,
  type CheckoutStandIn,
} from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, sessionOf, submitCard, type PaymentView } from './support/payment-scenario';
import { STRIPE_TEST_CARDS, startStripeStandIn, type StripeStandIn } from '../services/payment-orchestrator/src/processors/stripe/dev/stripe.stand-in';
import { startWebhookReceiver, verifiedPaymentWebhooks, type WebhookReceiver } from './support/webhook-receiver';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_captures_key', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_captures_key', processing_channel_id: 'pc_e2ecap1', webhook_secret: 'whsec_e2e_captures0123456789abcdefghij' };
const STRIPE = { secret_key: 'sk_test_e2eCapturesKey21', webhook_secret: 'whsec_e2eCapturesSigning0123456789abcd' };

interface Capture {
  sequence: number;
  amount: number;
  final: boolean;
  status: string;
}

/**
 * Issue 34, finding 6, through the gateway in the embedded profile: an order shipped in parts is captured in
 * parts, on the simulator and on each processor's stand-in as its API wants it (Stripe final_capture,
 * Checkout.com capture_type, Adyen multiple partial captures and a cancel of what the final one left); a
 * capture that fails can be asked again; cancel releases what is left; every capture is a transaction
 * and a signed payment.captured (or payment.capture_failed) webhook.
 */
describe('captures as shipping works, through the gateway (embedded profile)', () => {
  let running: RunningSystem;
  let api: PaymentsApi;
  let receiver: WebhookReceiver;
  let secret: string;
  let stripe: StripeStandIn;
  let checkout: CheckoutStandIn;
  let adyenMulti: AdyenStandIn;
  let adyenSingle: AdyenStandIn;

  beforeAll(async () => {
    [stripe, checkout, adyenMulti, adyenSingle, receiver] = await Promise.all([
      startStripeStandIn({ secretKey: STRIPE.secret_key, webhookSecret: STRIPE.webhook_secret }),
      startCheckoutStandIn({ secretKey: CHECKOUT.secret_key, processingChannelId: CHECKOUT.processing_channel_id, webhookSecret: CHECKOUT.webhook_secret }),
      startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY, multiplePartialCaptures: true }),
      startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY }),
      startWebhookReceiver(),
    ]);
    running = await startSystem(
      {
        ...PAYMENT_ENV,
        FORWARD_HTTPS_ONLY: 'false',
        FORWARD_EXTRA_DESTINATIONS: [
          `${stripe.baseUrl}/v1/payment_intents`,
          `${checkout.baseUrl}/payments`,
          `${adyenMulti.baseUrl}/v69/payments`,
          `${adyenSingle.baseUrl}/v69/payments`,
        ].join(','),
        PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
      },
      'vaultline-captures-',
    );
    api = new PaymentsApi(running.merchant);
    secret = (await registerWebhookEndpoint(running.merchant, receiver.url, [])).secret;
  }, 90_000);
  afterAll(async () => {
    await running?.stop();
    await Promise.all([stripe?.stop(), checkout?.stop(), adyenMulti?.stop(), adyenSingle?.stop(), receiver?.stop()]);
  });

  /** A processor account whose notifications reach its route through the gateway, and a manual-capture flow on it as the default. */
  async function manualFlowOn(
    processor: 'stripe' | 'checkout' | 'adyen',
    standIn: StripeStandIn | CheckoutStandIn | AdyenStandIn,
    settings: Record<string, unknown> = {},
  ): Promise<string> {
    const credentials = processor === 'stripe' ? STRIPE : processor === 'checkout' ? CHECKOUT : ADYEN;
    const account = await api.ok<{ id: string }>('POST', '/processor-accounts', {
      json: { processor, name: `${processor}-captures`, credentials, settings: { base_url: standIn.baseUrl, ...settings } },
    });
    standIn.webhookUrl = `${running.system.baseUrl}/processor-notifications/${processor}/${account.id}`;
    const name = `${processor}-manual-${account.id.slice(-6)}`;
    await api.ok('POST', '/flows', {
      json: {
        name,
        capture_mode: 'manual',
        steps: [
          { kind: 'authorization', processor: account.id },
          { kind: 'capture', processor: account.id },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: name, rules: [] } });
    return account.id;
  }

  async function authorized(card: string, amount = 1250): Promise<PaymentView> {
    const created = await api.ok('POST', '/payments/one-off', {
      json: { amount, currency_code: 'EUR', reference: `order-${card.slice(-4)}-${amount}`, source: { type: 'vaultline' } },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    return api.until(created.id, 'authorized');
  }

  const capture = (payment: PaymentView, json: Record<string, unknown>) =>
    api.call('POST', '/payments/{payment_id}/capture', { params: { payment_id: payment.id }, json });
  async function captured(payment: PaymentView, json: Record<string, unknown>, until: PaymentView['status']): Promise<PaymentView> {
    const answer = await capture(payment, json);
    expect([answer.status, answer.json<PaymentView>().status]).toEqual([200, 'capturing']);
    return api.until(payment.id, until, 30_000);
  }

  /** The signed capture webhooks of a payment, once `count` of them arrived: type, status, capture. */
  async function captureWebhooks(payment: PaymentView, count: number): Promise<Array<[string, unknown, Capture | undefined]>> {
    return waitFor(() => {
      const webhooks = verifiedPaymentWebhooks(receiver, secret, payment.id).filter((w) =>
        ['payment.capturing', 'payment.captured', 'payment.capture_failed'].includes(w.type),
      );
      return webhooks.length >= count
        ? webhooks.map((w) => [w.type, w.data.status, w.data.capture as Capture | undefined] as [string, unknown, Capture | undefined])
        : null;
    }, 20_000);
  }

  describe('on the simulator', () => {
    beforeAll(async () => {
      await api.ok('PUT', '/flow-matrix', { json: { default_flow: 'simulator_manual_capture', rules: [] } });
    });

    it('when an order ships in three parts, then three captures (final_capture false, false, true) make the payment partially_captured, then captured, each a transaction and a signed payment.captured with its amount', async () => {
      const payment = await authorized(SIMULATOR_CARDS.approved);
      expect(payment.amount).toEqual({ requested: 1250, authorized: 1250, capturable: 1250 });
      expect(
        (await captured(payment, { reference: 'box-1', amount: 500, currency_code: 'EUR', final_capture: false }, 'partially_captured')).amount,
      ).toMatchObject({ captured: 500, capturable: 750 });
      // Refunds take at most what was captured, also between captures.
      await api.refused(422, 'amount_exceeds_refundable', 'POST', '/payments/{payment_id}/refunds', {
        params: { payment_id: payment.id },
        json: { amount: 501 },
      });
      expect(
        (await captured(payment, { reference: 'box-2', amount: 500, currency_code: 'EUR', final_capture: false }, 'partially_captured')).amount,
      ).toMatchObject({ captured: 1000, capturable: 250 });
      expect((await captured(payment, { reference: 'box-3', final_capture: true }, 'captured')).amount).toEqual({
        requested: 1250,
        authorized: 1250,
        captured: 1250,
        capturable: 0,
        disputed: 0,
        net: 1250,
      });
      expect((await api.transactions(payment.id)).filter((t) => t.kind === 'capture').map((t) => [t.status, t.amount])).toEqual([
        ['succeeded', 500],
        ['succeeded', 500],
        ['succeeded', 250],
      ]);
      expect((await captureWebhooks(payment, 6)).filter(([type]) => type === 'payment.captured')).toEqual([
        ['payment.captured', 'partially_captured', { sequence: 1, amount: 500, final: false, status: 'succeeded', failure_reason: null, reference: 'box-1' }],
        ['payment.captured', 'partially_captured', { sequence: 2, amount: 500, final: false, status: 'succeeded', failure_reason: null, reference: 'box-2' }],
        ['payment.captured', 'captured', { sequence: 3, amount: 250, final: true, status: 'succeeded', failure_reason: null, reference: 'box-3' }],
      ]);
    });

    it('when the first capture fails (4000 0000 0000 0267), then the payment stays authorized with a payment.capture_failed webhook, and the capture asked again succeeds', async () => {
      const payment = await authorized(SIMULATOR_CARDS.captureFailsOnce);
      await capture(payment, { reference: 'first-try' });
      await waitFor(async () => ((await captureWebhooks(payment, 2)).some(([type]) => type === 'payment.capture_failed') ? true : null), 20_000);
      expect(await api.get(payment.id)).toMatchObject({ status: 'authorized', amount: { authorized: 1250, capturable: 1250 } });
      expect(await captured(payment, { reference: 'second-try' }, 'captured')).toMatchObject({ amount: { captured: 1250, capturable: 0 } });
      expect((await captureWebhooks(payment, 4)).map(([type, status]) => [type, status])).toEqual([
        ['payment.capturing', 'capturing'],
        ['payment.capture_failed', 'authorized'],
        ['payment.capturing', 'capturing'],
        ['payment.captured', 'captured'],
      ]);
    });

    it('when a capture failed (4000 0000 0000 0259), then cancel releases the authorization; after a partial capture, cancel releases the rest and the payment ends captured', async () => {
      const failed = await authorized(SIMULATOR_CARDS.captureFails);
      await capture(failed, {});
      await waitFor(async () => ((await captureWebhooks(failed, 2)).length === 2 ? true : null), 20_000);
      expect(await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: failed.id } })).toMatchObject({
        status: 'canceled',
        cancellation_reason: 'requested_by_merchant',
      });

      const partly = await authorized(SIMULATOR_CARDS.approved);
      await captured(partly, { amount: 300, currency_code: 'EUR', final_capture: false }, 'partially_captured');
      expect(await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: partly.id } })).toMatchObject({
        status: 'captured',
        amount: { captured: 300, capturable: 0 },
      });
      expect((await api.transactions(partly.id)).at(-1)).toMatchObject({ kind: 'void', status: 'succeeded', amount: 950 });
    });
  });

  it('on Stripe: when an order is captured in two parts, then Stripe receives final_capture=false with the first and final_capture=true with the last, and its PaymentIntent ends succeeded with both', async () => {
    await manualFlowOn('stripe', stripe);
    const payment = await authorized(STRIPE_TEST_CARDS.approved);
    const intent = stripe.intents.find((i) => i.fields['metadata[payment_id]'] === payment.id)!;
    expect(intent.fields['payment_method_options[card][request_multicapture]']).toBe('if_available');
    expect((await captured(payment, { amount: 400, currency_code: 'EUR', final_capture: false }, 'partially_captured')).amount).toMatchObject({
      captured: 400,
      capturable: 850,
    });
    expect((await captured(payment, { amount: 300, currency_code: 'EUR' }, 'captured')).amount).toMatchObject({ captured: 700, capturable: 0 });
    const sent = stripe.captures.filter((c) => c.intent === intent.id);
    expect(sent.map((c) => [c.fields.amount_to_capture, c.fields.final_capture, c.headers['idempotency-key']])).toEqual([
      ['400', 'false', `${payment.id}:capture`],
      ['300', 'true', `${payment.id}:capture:2`],
    ]);
    expect(intent.object).toMatchObject({ status: 'succeeded', amount_received: 700, amount_capturable: 0 });
    await api.refused(422, 'amount_exceeds_refundable', 'POST', '/payments/{payment_id}/refunds', {
      params: { payment_id: payment.id },
      json: { amount: 701 },
    });
  });

  it('on Checkout.com: when an order is captured in two parts, then the first capture is capture_type NonFinal and the last Final, each settled by its payment_captured webhook', async () => {
    await manualFlowOn('checkout', checkout);
    const payment = await authorized(CHECKOUT_TEST_CARDS.approved);
    expect((await captured(payment, { amount: 500, currency_code: 'EUR', final_capture: false }, 'partially_captured')).amount).toMatchObject({
      captured: 500,
      capturable: 750,
    });
    expect((await captured(payment, { amount: 250, currency_code: 'EUR' }, 'captured')).amount).toMatchObject({ captured: 750, capturable: 0 });
    const paymentId = checkout.payments.find((p) => p.body.reference === payment.id)!.id;
    expect(checkout.captures.filter((c) => c.paymentId === paymentId).map((c) => [c.body.amount, c.body.capture_type])).toEqual([
      [500, 'NonFinal'],
      [250, 'Final'],
    ]);
  });

  it('on Adyen with multiple partial captures: when an order is captured in two parts, then each is a /captures settled by its CAPTURE notification, and what the final one left is released with /cancels', async () => {
    await manualFlowOn('adyen', adyenMulti, { multiple_partial_captures: true });
    const payment = await authorized(ADYEN_TEST_CARDS.approved);
    expect((await captured(payment, { amount: 500, currency_code: 'EUR', final_capture: false }, 'partially_captured')).amount).toMatchObject({
      captured: 500,
      capturable: 750,
    });
    expect((await captured(payment, { amount: 300, currency_code: 'EUR' }, 'captured')).amount).toMatchObject({ captured: 800, capturable: 0 });
    const psp = adyenMulti.payments.find((p) => p.body.reference === payment.id)!.pspReference;
    expect(adyenMulti.captures.filter((c) => c.paymentPspReference === psp).map((c) => (c.body.amount as { value: number }).value)).toEqual([500, 300]);
    expect(adyenMulti.cancels.filter((c) => c.paymentPspReference === psp).map((c) => c.headers['idempotency-key'])).toEqual([`${payment.id}:release`]);
    expect((await api.transactions(payment.id)).slice(-3).map((t) => [t.kind, t.status, t.amount])).toEqual([
      ['capture', 'succeeded', 500],
      ['capture', 'succeeded', 300],
      ['void', 'succeeded', 450],
    ]);
  });

  it('on Adyen without multiple partial captures: when a capture says final_capture false, then it answers 422 multiple_captures_not_supported naming final_capture; a final partial capture goes through', async () => {
    await manualFlowOn('adyen', adyenSingle);
    const payment = await authorized(ADYEN_TEST_CARDS.approved);
    const refused = await api.refused(422, 'multiple_captures_not_supported', 'POST', '/payments/{payment_id}/capture', {
      params: { payment_id: payment.id },
      json: { amount: 500, currency_code: 'EUR', final_capture: false },
    });
    expect(refused.field).toBe('final_capture');
    expect((await captured(payment, { amount: 500, currency_code: 'EUR' }, 'captured')).amount).toMatchObject({ captured: 500, capturable: 0 });
  });
});

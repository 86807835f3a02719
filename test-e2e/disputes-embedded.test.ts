import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  CHECKOUT_TEST_CARDS,
  startCheckoutStandIn,
  type CheckoutStandIn,
} from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { adyenDisputeNotification, checkoutDisputeWebhook } from './support/dispute-notifications';
import {
  startStripeStandIn,
  stripeSignatureHeader,
  STRIPE_TEST_CARDS,
  type StripeStandIn,
} from '../services/payment-orchestrator/src/processors/stripe/dev/stripe.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, sessionOf, submitCard, SIMULATOR_CARDS, type PaymentView } from './support/payment-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_dispute_key_4410', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_dispute_key', processing_channel_id: 'pc_e2edispute', webhook_secret: 'whsec_e2e_dispute0123456789abcdefghijk' };
const STRIPE = { secret_key: 'sk_test_e2eDisputeKey8812', webhook_secret: 'whsec_e2eDisputeSigning0123456789abcde' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');

interface DisputeView {
  id: string;
  object: 'dispute';
  payment_id: string;
  status: string;
  reason: string;
  kind: 'inquiry' | 'chargeback';
  amount: number;
  processor_reference: string;
  evidence_due_by: string | null;
  evidence_submitted_at: string | null;
  livemode: boolean;
}

interface EarlyFraudWarningView {
  id: string;
  object: 'early_fraud_warning';
  payment_id: string;
  fraud_type: string;
  actionable: boolean;
}

/**
 * Chargebacks end to end in the embedded profile: a payment captured on each processor's stand-in, the
 * processor's signed chargeback notification delivered through the gateway's public notification route,
 * the dispute read through the gateway (answers checked against the OpenAPI document) and the merchant's
 * dispute.* webhooks verified with the standardwebhooks library.
 */
describe('disputes on Adyen and Checkout.com stand-ins, embedded profile', () => {
  let adyen: AdyenStandIn;
  let checkout: CheckoutStandIn;
  let stripe: StripeStandIn;
  let running: RunningSystem;
  let api: PaymentsApi;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY });
    checkout = await startCheckoutStandIn({
      secretKey: CHECKOUT.secret_key,
      processingChannelId: CHECKOUT.processing_channel_id,
      webhookSecret: CHECKOUT.webhook_secret,
    });
    stripe = await startStripeStandIn({ secretKey: STRIPE.secret_key, webhookSecret: STRIPE.webhook_secret });
    [running, receiver] = await Promise.all([
      startSystem(
        {
          ...PAYMENT_ENV,
          FORWARD_HTTPS_ONLY: 'false',
          FORWARD_EXTRA_DESTINATIONS: [`${adyen.baseUrl}/v69/payments`, `${checkout.baseUrl}/payments`, `${stripe.baseUrl}/v1/payment_intents`].join(','),
          PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
        },
        'vaultline-disputes-',
      ),
      startWebhookReceiver(),
    ]);
    api = new PaymentsApi(running.merchant);
    secret = (
      await registerWebhookEndpoint(running.merchant, receiver.url, ['dispute.created', 'dispute.updated', 'dispute.closed', 'early_fraud_warning.created'])
    ).secret;
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
    await Promise.all([adyen?.stop(), checkout?.stop(), stripe?.stop()]);
  });

  async function account(processor: 'adyen' | 'checkout' | 'stripe', baseUrl: string): Promise<string> {
    const credentials = { adyen: ADYEN, checkout: CHECKOUT, stripe: STRIPE }[processor];
    const answer = await running.merchant.call('POST', '/processor-accounts', {
      json: { processor, name: processor, credentials, settings: { base_url: baseUrl } },
    });
    expect(answer.status).toBe(201);
    const id = answer.json<{ id: string }>().id;
    // Adyen notifies the account's endpoint (its CAPTURE confirms an automatic capture), through the gateway.
    if (processor === 'adyen') adyen.webhookUrl = `${running.system.baseUrl}/processor-notifications/adyen/${id}`;
    return id;
  }

  async function capturedOn(flow: string, authorizer: string | null, card: string, captureMode: 'automatic' | 'manual' = 'automatic'): Promise<PaymentView> {
    if (authorizer)
      await api.ok('POST', '/flows', {
        json: {
          name: flow,
          capture_mode: captureMode,
          steps: [
            { kind: 'authorization', processor: authorizer },
            { kind: 'capture', processor: authorizer },
          ],
        },
      });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: flow, rules: [] } });
    const created = await api.ok('POST', '/payments/one-off', {
      json: { amount: 1250, currency_code: 'EUR', reference: `order-${flow}`, source: { type: 'vaultline' } },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    if (captureMode === 'manual') {
      await api.until(created.id, 'authorized');
      await api.ok('POST', '/payments/{payment_id}/capture', { params: { payment_id: created.id }, json: {} });
    }
    return api.until(created.id, 'captured');
  }

  const notify = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${running.system.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  const disputesOf = async (paymentId: string) =>
    (await api.ok<{ data: DisputeView[] }>('GET', '/payments/{payment_id}/disputes', { params: { payment_id: paymentId } })).data;

  /** The dispute webhooks of one payment, each verified with the endpoint's secret, in the order they arrived. */
  function disputeWebhooks(paymentId: string): Array<[string, string]> {
    return receiver.received
      .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: { payment_id: string; status: string } })
      .filter((payload) => payload.type.startsWith('dispute.') && payload.data.payment_id === paymentId)
      .map((payload) => [payload.type, payload.data.status]);
  }

  const paymentAmount = async (paymentId: string) => (await api.get(paymentId)).amount as Record<string, number>;

  it('when Adyen notifies a chargeback, then a redelivery included, the payment has one dispute needing a response, then won on CHARGEBACK_REVERSED, with verified dispute.created and dispute.closed webhooks', async () => {
    const adyenAccount = await account('adyen', adyen.baseUrl);
    const payment = await capturedOn('adyen-disputed', adyenAccount, ADYEN_TEST_CARDS.approved);
    const psp = adyen.payments.find((p) => p.body.reference === payment.id)!.pspReference;
    const chargeback = (eventCode: string, disputeStatus: string) =>
      JSON.stringify(
        adyenDisputeNotification(HMAC_KEY, {
          eventCode,
          disputeStatus,
          pspReference: 'DSPEETWOEWQKLRTX',
          paymentPspReference: psp,
          merchantReference: payment.id,
          amount: { value: 1250, currency: 'EUR' },
        }),
      );

    for (let delivery = 0; delivery < 2; delivery++) {
      const answer = await notify(`/processor-notifications/adyen/${adyenAccount}`, chargeback('NOTIFICATION_OF_CHARGEBACK', 'Undefended'));
      expect([answer.status, await answer.text()]).toEqual([200, '[accepted]']);
    }
    const [dispute, ...others] = await disputesOf(payment.id);
    expect(others).toEqual([]);
    expect(dispute).toMatchObject({
      object: 'dispute',
      payment_id: payment.id,
      amount: 1250,
      status: 'needs_response',
      reason: 'fraudulent',
      processor_reference: 'DSPEETWOEWQKLRTX',
      livemode: false,
    });
    expect(await api.ok<DisputeView>('GET', '/disputes/{dispute_id}', { params: { dispute_id: dispute!.id } })).toEqual(dispute);

    await notify(`/processor-notifications/adyen/${adyenAccount}`, chargeback('CHARGEBACK_REVERSED', 'Won'));
    expect((await disputesOf(payment.id))[0]!.status).toBe('won');
    const hooks = await waitFor(() => (disputeWebhooks(payment.id).length >= 2 ? disputeWebhooks(payment.id) : null), 20_000, 50);
    expect(hooks).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.closed', 'won'],
    ]);
  }, 60_000);

  it('when Checkout.com sends dispute_received and then dispute_lost through the gateway, then the dispute needs a response and then is lost, with verified webhooks; a forged one is refused', async () => {
    const checkoutAccount = await account('checkout', checkout.baseUrl);
    checkout.webhookUrl = `${running.system.baseUrl}/processor-notifications/checkout/${checkoutAccount}`;
    const payment = await capturedOn('checkout-disputed', checkoutAccount, CHECKOUT_TEST_CARDS.approved);
    const atCheckout = checkout.payments.find((p) => p.body.reference === payment.id)!;
    const webhook = (type: string) =>
      checkoutDisputeWebhook(CHECKOUT.webhook_secret, type, {
        id: 'dsp_e2ecko1x9q7kk2',
        paymentId: atCheckout.id,
        paymentReference: payment.id,
        amount: 1250,
        currency: 'EUR',
        category: 'product_service_not_received',
      });

    const received = webhook('dispute_received');
    const forged = await notify(`/processor-notifications/checkout/${checkoutAccount}`, received.rawBody, { 'cko-signature': '0'.repeat(64) });
    expect(forged.status).toBe(401);
    expect(await disputesOf(payment.id)).toEqual([]);
    expect((await notify(`/processor-notifications/checkout/${checkoutAccount}`, received.rawBody, { 'cko-signature': received.signature })).status).toBe(200);
    expect((await disputesOf(payment.id))[0]).toMatchObject({
      status: 'needs_response',
      reason: 'product_not_received',
      processor_reference: 'dsp_e2ecko1x9q7kk2',
    });
    const lost = webhook('dispute_lost');
    expect((await notify(`/processor-notifications/checkout/${checkoutAccount}`, lost.rawBody, { 'cko-signature': lost.signature })).status).toBe(200);
    expect((await disputesOf(payment.id)).map((d) => d.status)).toEqual(['lost']);
    const hooks = await waitFor(() => (disputeWebhooks(payment.id).length >= 2 ? disputeWebhooks(payment.id) : null), 20_000, 50);
    expect(hooks).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.closed', 'lost'],
    ]);
  }, 60_000);

  it('when a test key opens a dispute on a simulator payment, then GET /disputes lists it first, and a payment not captured is refused 409 dispute_not_allowed', async () => {
    const payment = await capturedOn('simulator_auto_capture', null, SIMULATOR_CARDS.approved);
    const opened = await api.ok<DisputeView>('POST', '/payments/{payment_id}/test/dispute', {
      params: { payment_id: payment.id },
      json: { reason: 'duplicate' },
    });
    expect(opened).toMatchObject({ status: 'needs_response', reason: 'duplicate', payment_id: payment.id, livemode: false });
    const page = await api.ok<{ data: DisputeView[] }>('GET', '/disputes', { query: 'limit=1' });
    expect(page.data.map((d) => d.id)).toEqual([opened.id]);
    const declined = await api.ok('POST', '/payments/one-off', { json: { amount: 500, currency_code: 'EUR', source: { type: 'vaultline' } } });
    await api.refused(409, 'dispute_not_allowed', 'POST', '/payments/{payment_id}/test/dispute', { params: { payment_id: declined.id }, json: {} });
    const hooks = await waitFor(() => (disputeWebhooks(payment.id).length >= 1 ? disputeWebhooks(payment.id) : null), 20_000, 50);
    expect(hooks).toEqual([['dispute.created', 'needs_response']]);
  }, 60_000);

  it('when a payment is disputed while refundable (simulator card 4000 0000 0000 2685), then it shows amount.disputed and a refund is refused 409 payment_disputed; accepting the dispute closes it lost, with verified dispute.updated and dispute.closed webhooks', async () => {
    const payment = await capturedOn('simulator_auto_capture', null, SIMULATOR_CARDS.disputed);
    const [dispute] = await disputesOf(payment.id);
    expect(dispute).toMatchObject({ status: 'needs_response', kind: 'chargeback', reason: 'product_not_received', amount: 1250 });
    expect(await paymentAmount(payment.id)).toEqual({ requested: 1250, authorized: 1250, captured: 1250, capturable: 0, disputed: 1250, net: 0 });
    const refused = await api.refused(409, 'payment_disputed', 'POST', '/payments/{payment_id}/refunds', {
      params: { payment_id: payment.id },
      json: { amount: 1250 },
    });
    expect(String(refused.detail)).toContain('amount.disputed 1250 EUR');

    const accepted = await api.ok<DisputeView>('POST', '/disputes/{dispute_id}/accept', { params: { dispute_id: dispute!.id }, json: {} });
    expect(accepted.status).toBe('lost');
    await api.refused(409, 'dispute_closed', 'POST', '/disputes/{dispute_id}/evidence', {
      params: { dispute_id: dispute!.id },
      json: { evidence: { product_description: 'Scarf' } },
    });
    const hooks = await waitFor(() => (disputeWebhooks(payment.id).length >= 3 ? disputeWebhooks(payment.id) : null), 20_000, 50);
    expect(hooks).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'lost'],
      ['dispute.closed', 'lost'],
    ]);
  }, 60_000);

  it('when Stripe reports a dispute for a payment whose payment_intent.succeeded never arrived, then it is matched by the PaymentIntent the payment keeps; evidence with a file is uploaded to Stripe and submitted', async () => {
    const stripeAccount = await account('stripe', stripe.baseUrl);
    // No webhook reaches us from this stand-in but the dispute itself.
    stripe.webhookUrl = null;
    const payment = await capturedOn('stripe-disputed', stripeAccount, STRIPE_TEST_CARDS.approved, 'manual');
    const intent = stripe.intents.find((candidate) => candidate.fields['metadata[payment_id]'] === payment.id)!;
    const stripeDispute = stripe.dispute(intent.id, 'product_not_received');
    const created = stripe.webhooks.at(-1)!;
    const delivered = await notify(`/processor-notifications/stripe/${stripeAccount}`, created.rawBody, {
      'stripe-signature': stripeSignatureHeader(created.rawBody, [STRIPE.webhook_secret]),
    });
    expect(delivered.status).toBe(200);
    const [dispute, ...others] = await disputesOf(payment.id);
    expect(others).toEqual([]);
    expect(dispute).toMatchObject({ processor_reference: stripeDispute, status: 'needs_response', reason: 'product_not_received' });

    const submitted = await api.ok<DisputeView>('POST', '/disputes/{dispute_id}/evidence', {
      params: { dispute_id: dispute!.id },
      json: {
        evidence: {
          product_description: 'Wool scarf, order 1001',
          receipt: { filename: 'receipt-1001.pdf', content_type: 'application/pdf', data: PDF.toString('base64') },
        },
      },
    });
    expect(submitted.status).toBe('under_review');
    expect(stripe.files.at(-1)!.content.equals(PDF)).toBe(true);
    expect(stripe.disputeRequests.at(-1)!.fields).toEqual({
      'evidence[product_description]': 'Wool scarf, order 1001',
      'evidence[receipt]': stripe.files.at(-1)!.id,
      submit: 'true',
    });
    expect(stripe.disputes.get(stripeDispute)!.status).toBe('under_review');
  }, 60_000);

  it('when Adyen notifies a chargeback naming a payment that Checkout.com handled, then it is accepted and recorded but opens no dispute on that payment', async () => {
    const adyenAccount = await account('adyen', adyen.baseUrl);
    const checkoutAccount = await account('checkout', checkout.baseUrl);
    checkout.webhookUrl = `${running.system.baseUrl}/processor-notifications/checkout/${checkoutAccount}`;
    const foreign = await capturedOn('checkout-foreign', checkoutAccount, CHECKOUT_TEST_CARDS.approved);
    const chargeback = adyenDisputeNotification(HMAC_KEY, {
      eventCode: 'NOTIFICATION_OF_CHARGEBACK',
      disputeStatus: 'Undefended',
      pspReference: 'DSPFOREIGNPAYMNT',
      paymentPspReference: 'QFQTPCQ8HXSKGKAB',
      merchantReference: foreign.id,
      amount: { value: 1250, currency: 'EUR' },
    });
    const answer = await notify(`/processor-notifications/adyen/${adyenAccount}`, JSON.stringify(chargeback));
    expect([answer.status, await answer.text()]).toEqual([200, '[accepted]']);
    expect(await disputesOf(foreign.id)).toEqual([]);
    expect(await paymentAmount(foreign.id)).toMatchObject({ disputed: 0, net: 1250 });
  }, 60_000);

  it('when Adyen sends NOTIFICATION_OF_FRAUD for a payment it captured, then the payment gets an early fraud warning (never a dispute), listed through the gateway and delivered as a verified early_fraud_warning.created webhook', async () => {
    const adyenAccount = await account('adyen', adyen.baseUrl);
    const payment = await capturedOn('adyen-fraud', adyenAccount, ADYEN_TEST_CARDS.approved);
    const psp = adyen.payments.find((p) => p.body.reference === payment.id)!.pspReference;
    const answer = await notify(`/processor-notifications/adyen/${adyenAccount}`, JSON.stringify(adyen.fraudNotification(psp)));
    expect([answer.status, await answer.text()]).toEqual([200, '[accepted]']);
    const { data } = await api.ok<{ data: EarlyFraudWarningView[] }>('GET', '/early-fraud-warnings', { query: `payment_id=${payment.id}` });
    expect(data.map((warning) => [warning.object, warning.fraud_type, warning.actionable])).toEqual([
      ['early_fraud_warning', 'unauthorized_use_of_card', true],
    ]);
    expect(
      await api.ok<EarlyFraudWarningView>('GET', '/early-fraud-warnings/{early_fraud_warning_id}', { params: { early_fraud_warning_id: data[0]!.id } }),
    ).toEqual(data[0]);
    expect(await disputesOf(payment.id)).toEqual([]);
    const hook = await waitFor(
      () =>
        receiver.received
          .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: { id: string; payment_id: string } })
          .find((payload) => payload.type === 'early_fraud_warning.created' && payload.data.payment_id === payment.id) ?? null,
      20_000,
      50,
    );
    expect(hook.data.id).toBe(data[0]!.id);
  }, 60_000);
});

import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, sessionOf, submitCard, timeFromNow, type PaymentView } from './support/payment-scenario';
import {
  STRIPE_ACCOUNT_DEFAULT_VERSION,
  STRIPE_TEST_CARDS,
  startStripeStandIn,
  type StripeStandIn,
} from '../services/payment-orchestrator/src/processors/stripe/dev/stripe.stand-in';
import { startWebhookReceiver, verifiedPaymentWebhooks, type WebhookReceiver } from './support/webhook-receiver';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_honest_key', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const STRIPE = { secret_key: 'sk_test_e2eHonestKey4410', webhook_secret: 'whsec_e2eHonestSigning0123456789abcdef' };
/** The version the Stripe plugin pins (services/payment-orchestrator/src/processors/stripe/stripe.api-version.ts). */
const PINNED_STRIPE_VERSION = '2024-06-20';

/**
 * Issue 34, finding 5, through the gateway in the embedded profile: Stripe is spoken to in one pinned
 * version, also through the forwarder (an account whose default is older than 2022-11-15 still gives
 * latest_charge, so a merchant-initiated payment carries its series' network transaction id); a Stripe
 * refund left pending, whose webhook never comes, is settled by asking Stripe; an automatic capture on
 * Adyen counts as authorized until Adyen confirms it, so CAPTURE_FAILED fails the payment.
 */
describe('processors kept honest, through the gateway (embedded profile)', () => {
  let running: RunningSystem;
  let api: PaymentsApi;
  let receiver: WebhookReceiver;
  let secret: string;
  let stripe: StripeStandIn;
  let adyen: AdyenStandIn;

  beforeAll(async () => {
    [stripe, adyen, receiver] = await Promise.all([
      startStripeStandIn({ secretKey: STRIPE.secret_key, webhookSecret: STRIPE.webhook_secret }),
      startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY }),
      startWebhookReceiver(),
    ]);
    running = await startSystem(
      {
        ...PAYMENT_ENV,
        FORWARD_HTTPS_ONLY: 'false',
        FORWARD_EXTRA_DESTINATIONS: [`${stripe.baseUrl}/v1/payment_intents`, `${adyen.baseUrl}/v69/payments`].join(','),
        PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
      },
      'vaultline-honest-',
    );
    api = new PaymentsApi(running.merchant);
    secret = (await registerWebhookEndpoint(running.merchant, receiver.url, [])).secret;
  }, 90_000);
  afterAll(async () => {
    await running?.stop();
    await Promise.all([stripe?.stop(), adyen?.stop(), receiver?.stop()]);
  });

  async function automaticFlowOn(processor: 'stripe' | 'adyen', standIn: StripeStandIn | AdyenStandIn): Promise<string> {
    const account = await api.ok<{ id: string }>('POST', '/processor-accounts', {
      json: { processor, name: `${processor}-honest`, credentials: processor === 'stripe' ? STRIPE : ADYEN, settings: { base_url: standIn.baseUrl } },
    });
    standIn.webhookUrl = `${running.system.baseUrl}/processor-notifications/${processor}/${account.id}`;
    const name = `${processor}-auto-${account.id.slice(-6)}`;
    await api.ok('POST', '/flows', {
      json: {
        name,
        capture_mode: 'automatic',
        steps: [
          { kind: 'authorization', processor: account.id },
          { kind: 'capture', processor: account.id },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: name, rules: [] } });
    return account.id;
  }

  async function paid(card: string, path = '/payments/one-off', extra: Record<string, unknown> = {}): Promise<PaymentView> {
    const created = await api.ok('POST', path, {
      json: { amount: 1250, currency_code: 'EUR', reference: `order-${card.slice(-4)}`, source: { type: 'vaultline' }, ...extra },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    return created;
  }

  it(`when the Stripe account's default version is ${STRIPE_ACCOUNT_DEFAULT_VERSION} (no latest_charge), then every call, the forwarded authorization included, carries Stripe-Version ${PINNED_STRIPE_VERSION}, and a monthly charge names the first charge's network transaction id`, async () => {
    await automaticFlowOn('stripe', stripe);
    const before = stripe.requests.length;
    const initial = await paid(STRIPE_TEST_CARDS.approved, '/payments/recurring', { recurring_frequency: 30, recurring_expiry: '20301231' });
    await api.until(initial.id, 'captured');
    const answer = await api.call('POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1250, currency_code: 'EUR' },
      headers: { 'X-Test-Now': timeFromNow(31) },
    });
    expect(answer.status).toBe(200);
    const subsequent = await api.until(answer.json<PaymentView>().id, 'captured');
    const first = stripe.intents.find((i) => i.fields['metadata[payment_id]'] === initial.id)!;
    const networkTransactionId = (
      stripe.charges.get(first.object.latest_charge as string)! as { payment_method_details: { card: { network_transaction_id: string } } }
    ).payment_method_details.card.network_transaction_id;
    expect(
      stripe.intents.find((i) => i.fields['metadata[payment_id]'] === subsequent.id)!.fields[
        'payment_method_options[card][mit_exemption][network_transaction_id]'
      ],
    ).toBe(networkTransactionId);
    const made = stripe.requests.slice(before);
    expect(made.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')).toHaveLength(2);
    expect(new Set(made.map((r) => r.version))).toEqual(new Set([PINNED_STRIPE_VERSION]));
  }, 60_000);

  it('when a Stripe refund stays pending and its webhook never comes, then Stripe is asked (GET /v1/refunds/{id}) until it says succeeded, and the refund and the payment say so, with a signed refund.succeeded', async () => {
    await automaticFlowOn('stripe', stripe);
    stripe.refundWebhooks = false;
    try {
      const payment = await paid(STRIPE_TEST_CARDS.refundPending);
      await api.until(payment.id, 'captured');
      const created = await api.call('POST', '/payments/{payment_id}/refunds', { params: { payment_id: payment.id }, json: { amount: 600 } });
      expect(created.json<{ status: string }>().status).toBe('pending');
      const refundId = created.json<{ id: string }>().id;
      const settled = await waitFor(async () => {
        const refund = await api.ok<{ status: string }>('GET', '/refunds/{refund_id}', { params: { refund_id: refundId } });
        return refund.status === 'succeeded' ? refund : null;
      }, 40_000);
      expect(settled.status).toBe('succeeded');
      const reference = stripe.refunds.find((r) => r.fields['metadata[refund_id]'] === refundId)!.object.id as string;
      expect(stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/refunds/${reference}`).length).toBeGreaterThanOrEqual(1);
      expect(stripe.webhooks.filter((w) => w.rawBody.includes(reference))).toEqual([]);
      expect((await api.get(payment.id)).amount).toMatchObject({ captured: 1250, refunded: 600 });
      await waitFor(() => receiver.received.some((w) => w.body.includes('"refund.succeeded"') && w.body.includes(refundId)) || null, 20_000);
    } finally {
      stripe.refundWebhooks = true;
    }
  }, 60_000);

  it('when Adyen captures an automatic-capture payment and reports CAPTURE_FAILED, then the payment, processing with amount.authorized until then, fails with capture_failed: payment.failed, never payment.captured', async () => {
    await automaticFlowOn('adyen', adyen);
    adyen.automaticCaptures = 'fail';
    try {
      const payment = await paid(ADYEN_TEST_CARDS.approved);
      const failed = await api.until(payment.id, 'failed');
      expect(failed).toMatchObject({ failure_reason: 'capture_failed', amount: { authorized: 1250, capturable: 0 } });
      expect(failed.amount).not.toHaveProperty('captured');
      expect((await api.transactions(payment.id)).map((t) => [t.kind, t.status])).toEqual([
        ['authorization', 'succeeded'],
        ['capture', 'failed'],
      ]);
      const webhooks = await waitFor(() => {
        const types = verifiedPaymentWebhooks(receiver, secret, payment.id)
          .map((w) => w.type)
          .filter((type) => type.startsWith('payment.'));
        return types.includes('payment.failed') ? types : null;
      }, 20_000);
      expect(webhooks).toEqual(['payment.processing', 'payment.failed']);
    } finally {
      adyen.automaticCaptures = 'succeed';
    }
    // With CAPTURE the next one is captured.
    const next = await paid(ADYEN_TEST_CARDS.approved);
    expect((await api.until(next.id, 'captured')).amount).toMatchObject({ authorized: 1250, captured: 1250 });
  }, 60_000);
});

import { waitFor } from '@vaultline/core';
import {
  STRIPE_TEST_CARDS,
  startStripeStandIn,
  stripeSignatureHeader,
  type StripeStandIn,
} from '../services/payment-orchestrator/src/processors/stripe/dev/stripe.stand-in';
import { accountNumberNeedles, isSqliteFile, scanDirectory } from './support/leak-scan';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_CVC, PAYMENT_ENV, PaymentsApi, dayFromNow, sessionOf, submitCard, timeFromNow, type PaymentView } from './support/payment-scenario';

const STRIPE = { secret_key: 'sk_test_e2eStripeKey5531', webhook_secret: 'whsec_e2eStripeSigning0123456789abcdef' };

interface RefundView {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
}

/**
 * Stripe as the third processor, from the outside, in the embedded profile: the orchestrator builds the
 * PaymentIntent as a form template, the forwarder fills the card from the vault's token and sends it to the
 * Stripe stand-in; the hosted page takes the consumer to the issuer's page for 3-D Secure and back; the
 * stand-in's webhooks reach the orchestrator through the gateway's one notification route, Stripe-Signature
 * verified.
 */
describe('payments on the Stripe stand-in, embedded profile', () => {
  let stripe: StripeStandIn;
  let running: RunningSystem;
  let api: PaymentsApi;
  let account: string;

  beforeAll(async () => {
    stripe = await startStripeStandIn({ secretKey: STRIPE.secret_key, webhookSecret: STRIPE.webhook_secret, previousWebhookSecret: 'whsec_e2eRotatedAway' });
    running = await startSystem(
      { ...PAYMENT_ENV, FORWARD_HTTPS_ONLY: 'false', FORWARD_EXTRA_DESTINATIONS: `${stripe.baseUrl}/v1/payment_intents`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' },
      'vaultline-stripe-',
    );
    api = new PaymentsApi(running.merchant);
    const created = await running.merchant.call('POST', '/processor-accounts', {
      json: { processor: 'stripe', name: 'Stripe EU', credentials: STRIPE, settings: { base_url: stripe.baseUrl } },
    });
    expect(created.status).toBe(201);
    expect(created.json<{ credentials: { hint: string } }>().credentials.hint).toBe('…5531');
    account = created.json<{ id: string }>().id;
    // Stripe delivers every event to the account's endpoint: the one notification route, through the gateway.
    stripe.webhookUrl = `${running.system.baseUrl}/processor-notifications/stripe/${account}`;
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    await stripe?.stop();
  });

  async function routeAll(name: string, captureMode: 'automatic' | 'manual'): Promise<void> {
    await api.ok('POST', '/flows', {
      json: {
        name,
        capture_mode: captureMode,
        steps: [
          { kind: 'authorization', processor: account },
          { kind: 'capture', processor: account },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: name, rules: [] } });
  }

  async function pay(card: string, amount = 1250): Promise<PaymentView> {
    const created = await api.ok('POST', '/payments/one-off', {
      json: { amount, currency_code: 'EUR', reference: `order-${card.slice(-4)}`, source: { type: 'vaultline' } },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    return created;
  }

  const intentOf = (paymentId: string) => waitFor(async () => stripe.intents.find((intent) => intent.fields['metadata[payment_id]'] === paymentId), 10_000);

  async function refunded(paymentId: string, amount: number): Promise<RefundView> {
    const answer = await api.call('POST', '/payments/{payment_id}/refunds', {
      params: { payment_id: paymentId },
      json: { amount, reason: 'requested_by_customer' },
    });
    expect(answer.status).toBe(201);
    return answer.json<RefundView>();
  }

  const refundUntil = (id: string, status: RefundView['status']) =>
    waitFor(async () => {
      const refund = await api.ok<RefundView>('GET', '/refunds/{refund_id}', { params: { refund_id: id } });
      return refund.status === status ? refund : null;
    }, 15_000);

  it("when a one-off payment needs 3-D Secure, then the hosted page sends the consumer to the issuer's page (next_action.redirect_to_url) and back, and the payment is captured with the authentication recorded", async () => {
    await routeAll('stripe-auto', 'automatic');
    const created = await pay(STRIPE_TEST_CARDS.threeDs, 1999);
    const session = sessionOf(created);
    const intent = await intentOf(created.id);
    expect(intent.fields).toMatchObject({
      amount: '1999',
      currency: 'eur',
      confirm: 'true',
      capture_method: 'automatic',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': STRIPE_TEST_CARDS.threeDs,
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '2034',
      'payment_method_data[card][cvc]': PAYMENT_CVC,
    });
    // The way back is the hosted page's (the public address: the gateway's host as configured).
    expect(new URL(intent.fields.return_url!).pathname).toBe(`/checkout/${session}/return`);
    expect(intent.headers['idempotency-key']).toBe(`${created.id}:authorization`);

    // The hosted page's way to the bank: a redirect to the issuer's page Stripe named.
    const toIssuer = await waitFor(async () => {
      const answer = await fetch(`${running.system.baseUrl}/checkout/${session}/authenticate`, { redirect: 'manual' });
      const location = answer.headers.get('location') ?? '';
      return location.startsWith(stripe.baseUrl) ? location : null;
    }, 15_000);
    const fromIssuer = await fetch(`${toIssuer}/complete?outcome=completed`, { redirect: 'manual' });
    const back = new URL(fromIssuer.headers.get('location')!);
    expect([back.pathname, back.searchParams.get('payment_intent')]).toEqual([`/checkout/${session}/return`, intent.id]);
    expect((await fetch(`${running.system.baseUrl}${back.pathname}${back.search}`, { redirect: 'manual' })).status).toBe(303);

    const payment = await api.until(created.id, 'captured');
    expect(payment).toMatchObject({
      flow: 'stripe-auto',
      amount: { authorized: 1999, captured: 1999 },
      authentication: { type: '3ds', status: 'authenticated' },
    });
  }, 60_000);

  it("when an initial recurring payment is followed by a subsequent one, then the initial sets up off-session use and the subsequent is off_session=true with the initial charge's network transaction id and no cvc", async () => {
    await routeAll('stripe-recurring', 'automatic');
    const initial = await api.ok('POST', '/payments/recurring', {
      json: {
        amount: 1500,
        currency_code: 'EUR',
        reference: 'subscription-stripe-1',
        source: { type: 'vaultline' },
        recurring_frequency: 30,
        recurring_expiry: dayFromNow(90),
      },
    });
    await submitCard(running.system.baseUrl, sessionOf(initial), STRIPE_TEST_CARDS.approved);
    await api.until(initial.id, 'captured');
    const first = await intentOf(initial.id);
    expect(first.fields.setup_future_usage).toBe('off_session');
    const firstCharge = stripe.charges.get(first.object.latest_charge as string)!;
    const networkTransactionId = (firstCharge.payment_method_details as { card: { network_transaction_id: string } }).card.network_transaction_id;

    const answer = await api.call('POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1500, currency_code: 'EUR' },
      headers: { 'X-Test-Now': timeFromNow(31) },
    });
    expect(answer.status).toBe(200);
    const subsequent = answer.json<PaymentView>();
    await api.until(subsequent.id, 'captured');
    const sent = (await intentOf(subsequent.id)).fields;
    expect(sent).toMatchObject({ off_session: 'true', 'payment_method_data[card][number]': STRIPE_TEST_CARDS.approved });
    expect(sent['payment_method_options[card][mit_exemption][network_transaction_id]']).toBe(networkTransactionId);
    expect(sent).not.toHaveProperty(['payment_method_data[card][cvc]']);
    expect(sent).not.toHaveProperty('setup_future_usage');
  }, 60_000);

  it('when a manual-capture payment is captured in part, then Stripe receives amount_to_capture and the payment is captured at that amount', async () => {
    await routeAll('stripe-manual', 'manual');
    const created = await pay(STRIPE_TEST_CARDS.approved, 2000);
    await api.until(created.id, 'authorized');
    expect((await intentOf(created.id)).fields.capture_method).toBe('manual');
    await api.ok('POST', '/payments/{payment_id}/capture', { params: { payment_id: created.id }, json: { amount: 1500, currency_code: 'EUR' } });
    expect(await api.until(created.id, 'captured')).toMatchObject({ amount: { authorized: 2000, captured: 1500 } });
    expect(stripe.captures.at(-1)).toMatchObject({
      fields: { amount_to_capture: '1500' },
      headers: { 'idempotency-key': expect.stringContaining(created.id) },
    });
  }, 30_000);

  it('when an authorized payment is canceled, then Stripe cancels the PaymentIntent and the payment is canceled at once (confirmed in the answer)', async () => {
    await routeAll('stripe-cancel', 'manual');
    const created = await pay(STRIPE_TEST_CARDS.approved);
    await api.until(created.id, 'authorized');
    expect(await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: created.id } })).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested_by_merchant',
    });
    expect(stripe.cancels.map((cancel) => cancel.intent)).toContain((await intentOf(created.id)).id);
  }, 30_000);

  it('when a captured payment is refunded, then Stripe receives /v1/refunds for the PaymentIntent with the amount and reason, and the refund succeeds in the answer', async () => {
    await routeAll('stripe-refund', 'automatic');
    const created = await pay(STRIPE_TEST_CARDS.approved);
    await api.until(created.id, 'captured');
    const refund = await refunded(created.id, 500);
    expect((await refundUntil(refund.id, 'succeeded')).amount).toBe(500);
    expect(stripe.refunds.at(-1)!.fields).toMatchObject({
      payment_intent: (await intentOf(created.id)).id,
      amount: '500',
      reason: 'requested_by_customer',
      'metadata[refund_id]': refund.id,
    });
  }, 30_000);

  it('when Stripe answers a refund pending, then it stays pending until the signed charge.refund.updated webhook arrives through the gateway, then succeeds', async () => {
    await routeAll('stripe-refund-pending', 'automatic');
    const created = await pay(STRIPE_TEST_CARDS.refundPending);
    await api.until(created.id, 'captured');
    const refund = await refunded(created.id, 1250);
    expect(refund.status).toBe('pending');
    await refundUntil(refund.id, 'succeeded');
    expect(stripe.webhooks.map((webhook) => webhook.type)).toContain('charge.refund.updated');
  }, 30_000);

  it('when Stripe opens and closes a dispute (charge.dispute.created, .closed), then the payment has a dispute, needing a response, then lost', async () => {
    await routeAll('stripe-dispute', 'automatic');
    const created = await pay(STRIPE_TEST_CARDS.approved);
    await api.until(created.id, 'captured');
    const intent = await intentOf(created.id);
    // The dispute names the PaymentIntent only: its payment_intent.succeeded, delivered days before at Stripe, is in first.
    await stripe.delivered();
    const disputeId = stripe.dispute(intent.id, 'product_not_received');
    const opened = await waitFor(
      async () =>
        (
          await api.ok<{ data: Array<{ status: string; reason: string; processor_reference: string }> }>('GET', '/payments/{payment_id}/disputes', {
            params: { payment_id: created.id },
          })
        ).data[0],
      15_000,
    );
    expect(opened).toMatchObject({ status: 'needs_response', reason: 'product_not_received', processor_reference: disputeId });
    stripe.closeDispute(disputeId, 'lost');
    await waitFor(
      async () =>
        (await api.ok<{ data: Array<{ status: string }> }>('GET', '/payments/{payment_id}/disputes', { params: { payment_id: created.id } })).data[0]
          ?.status === 'lost',
      15_000,
    );
  }, 30_000);

  it("when a Stripe event arrives with a forged signature, a stale timestamp or another endpoint's secret, then it is refused 401 invalid_signature; signed by the old and the new secret during a rotation, it is accepted", async () => {
    const webhook = stripe.signedEvent('payment_intent.succeeded', { id: 'pi_unknownIntent', object: 'payment_intent', metadata: {} });
    const deliver = (signature: string) =>
      fetch(`${running.system.baseUrl}/processor-notifications/stripe/${account}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: webhook.rawBody,
      });
    const forged = await deliver(`t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`);
    expect([forged.status, (await forged.json()) as { code: string }]).toEqual([401, expect.objectContaining({ code: 'invalid_signature' })]);
    expect((await deliver(stripeSignatureHeader(webhook.rawBody, [STRIPE.webhook_secret], new Date(Date.now() - 10 * 60_000)))).status).toBe(401);
    expect((await deliver(stripeSignatureHeader(webhook.rawBody, ['whsec_anotherEndpoint']))).status).toBe(401);
    // The stand-in signs with the current and the previous secret (a rotation): accepted.
    expect(webhook.signature.match(/v1=/g)).toHaveLength(2);
    expect((await deliver(webhook.signature)).status).toBe(200);
  });

  it("when the payments above ran, then the orchestrator's store (its SQLite file, WAL included) holds none of the card numbers Stripe received", () => {
    const scan = scanDirectory(
      running.dataDir,
      accountNumberNeedles([STRIPE_TEST_CARDS.approved, STRIPE_TEST_CARDS.threeDs, STRIPE_TEST_CARDS.refundPending]),
      (name) => name.startsWith('payment-orchestrator') && isSqliteFile(name),
    );
    expect(scan.files).toContain('payment-orchestrator.db');
    expect(scan.hits).toEqual([]);
    // Stripe did receive them: the scan looks for something that was there to find.
    expect(stripe.intents.some((intent) => intent.fields['payment_method_data[card][number]'] === STRIPE_TEST_CARDS.approved)).toBe(true);
  });
});

import { waitFor } from '@vaultline/core';
import { Vaultline, VaultlineAdmin, VaultlineError, WebhookVerificationError, type MerchantComponents } from '@vaultline/node';
import { adyenNotification } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook } from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { STAND_IN_CREDENTIALS, startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { ADYEN_BODY } from './support/forward-scenario';
import { ADMIN_API_KEY, MERCHANT_API_KEY, startSystem, type RunningSystem } from './support/merchant-api';
import { coverageOf, merchantRoutes, recordingFetch, type RecordedCall } from './support/sdk-answers';
import { PAYMENT_CVC, PAYMENT_ENV, SIMULATOR_CARDS, dayFromNow } from './support/payment-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Contract tests of the SDK (@vaultline/node) against the embedded service (issue 28): every route of
 * the merchant OpenAPI document is called once through the SDK — the typed calls where the generated
 * types know the route — and every answer the SDK received is checked against the document. A route
 * added to the document fails the coverage test until a call of it is added here.
 */
type Payment = MerchantComponents['schemas']['Payment'];

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const CHECKOUT_WEBHOOK_SECRET = 'whsec_sdk_checkout0123456789abcdefghij';
const CARD = { number: SIMULATOR_CARDS.approved, exp_month: 12, exp_year: 2034, cvc: PAYMENT_CVC, name: 'Ada Lovelace' };

/** A 1×1 PNG, base64: the smallest logo the checkout settings accept. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('the SDK against the embedded service: every merchant route once', () => {
  let standIns: DestinationStandIns;
  let receiver: WebhookReceiver;
  let running: RunningSystem;
  let vaultline: Vaultline;
  /** The SDK's fetch, watched: which route each request was for, and whether its answer is the documented one. */
  const calls: RecordedCall[] = [];

  beforeAll(async () => {
    standIns = await startDestinationStandIns();
    receiver = await startWebhookReceiver();
    running = await startSystem({ ...PAYMENT_ENV, ...standIns.forwarderEnv }, 'vaultline-sdk-contract-');
    vaultline = new Vaultline(MERCHANT_API_KEY, { baseUrl: running.system.baseUrl, fetch: recordingFetch(calls) });
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
    await standIns?.stop();
  });

  const paymentUntil = (id: string, status: Payment['status']) =>
    waitFor(
      async () => {
        const payment = await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: id } } });
        if (payment.status === 'failed' && status !== 'failed') throw new Error(`payment ${id} failed`);
        return payment.status === status ? payment : null;
      },
      20_000,
      50,
    );

  /** The consumer's side through the SDK: the session becomes known, then the card is entered on it. */
  async function payInSession(sessionId: string, card: Omit<typeof CARD, 'number'> & { number: string } = CARD): Promise<void> {
    await waitFor(() => vaultline.get('/sessions/{session_id}/status', { params: { path: { session_id: sessionId } } }).catch(() => null), 5_000, 20);
    await vaultline.post('/sessions/{session_id}/card', { params: { path: { session_id: sessionId } }, body: { card } });
  }
  const sessionOf = (payment: { action_requirement?: { session_id: string } | null }) => {
    if (!payment.action_requirement) throw new Error('the payment has no action_requirement');
    return payment.action_requirement.session_id;
  };

  it('when a test key is given, then the client is in test mode; a key of another shape is refused at once', () => {
    expect({ mode: vaultline.mode, livemode: vaultline.livemode }).toEqual({ mode: 'test', livemode: false });
    expect(new Vaultline('sk_live_abc').livemode).toBe(true);
    expect(() => new Vaultline('pk_test_abc')).toThrow('sk_test_ or sk_live_');
  });

  it('webhook endpoints, tokens, forwarding, imports and events: each route answers as documented, and a delivery verifies with webhooks.verify', async () => {
    const endpoint = await vaultline.post('/webhook-endpoints', {
      body: { url: receiver.url, events: ['token.created', 'payment.captured'], description: 'sdk' },
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    await vaultline.get('/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpoint.id } } });
    const listed = [];
    for await (const item of vaultline.list('/webhook-endpoints')) listed.push(item.id);
    expect(listed).toContain(endpoint.id);
    expect(
      await vaultline.patch('/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpoint.id } }, body: { description: 'sdk contract' } }),
    ).toMatchObject({ description: 'sdk contract' });

    // Three tokens, listed one per page: the iterator follows next_cursor across the pages.
    const tokens = [];
    for (const expiry of [2031, 2032, 2033]) tokens.push(await vaultline.post('/tokens', { body: { card: { ...CARD, exp_year: expiry } } }));
    const paged = [];
    for await (const token of vaultline.list('/tokens', { params: { query: { limit: 1 } } })) paged.push(token.id);
    expect(paged).toEqual(expect.arrayContaining(tokens.map((t) => t.id)));
    const [token] = tokens;
    expect(await vaultline.get('/tokens/{token_id}', { params: { path: { token_id: token!.id } } })).toMatchObject({
      id: token!.id,
      masked_account_number: expect.stringMatching(/4242$/),
    });

    await vaultline.post('/forward', {
      params: { header: { 'X-SERVICE-TOKEN': token!.id, 'X-DESTINATION-URL': standIns.adyen.url } },
      headers: { 'X-API-KEY-ADYEN-NAME': 'X-API-Key', 'X-API-KEY-ADYEN-VALUE': STAND_IN_CREDENTIALS.adyenApiKey },
      body: ADYEN_BODY,
    });
    expect(standIns.adyen.received.at(-1)?.body).toContain(SIMULATOR_CARDS.approved);

    const imported = await vaultline.post('/cde-import', { body: { metadata: { business_key: 'pm_sdk_contract' }, card: CARD } });
    expect(imported).toMatchObject({ business_key: 'pm_sdk_contract' });

    const job = await vaultline.post('/tokens/imports', { body: { provider: 'provider_a', provider_a: { api_key: 'sk_sdk_contract_key' } } });
    await vaultline.get('/tokens/imports/{import_id}', { params: { path: { import_id: job.id } } });
    await vaultline.get('/tokens/imports');

    const events = await vaultline.get('/events', { params: { query: { type: 'token.created', limit: 5 } } });
    expect(events.data.length).toBeGreaterThan(0);
    await vaultline.get('/events/{event_id}', { params: { path: { event_id: events.data[0]!.id } } });
    // The long poll from the start of the log answers at once: events are recorded already.
    const polled = await vaultline.get('/events/poll', { params: { query: { type: 'token.created', limit: 5, wait_seconds: 0 } } });
    expect(polled.data.length).toBeGreaterThan(0);

    // A delivery of token.created reached the receiver: the SDK verifies it with the endpoint's secret.
    const delivered = await waitFor(() => receiver.received.find((webhook) => webhook.body.includes('token.created')), 60_000);
    expect(vaultline.webhooks.verify(delivered.body, delivered.headers, endpoint.secret)).toMatchObject({ type: expect.stringContaining('token.created') });
    expect(() => vaultline.webhooks.verify(delivered.body.replace('token.created', 'token.deleted'), signatureHeaders(delivered), endpoint.secret)).toThrow(
      WebhookVerificationError,
    );

    const deliveries = await waitFor(async () => {
      const page = await vaultline.get('/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpoint.id } } });
      return page.data.length > 0 ? page.data : null;
    }, 10_000);
    const ofEvent = await vaultline.get('/events/{event_id}/deliveries', { params: { path: { event_id: deliveries[0]!.event_id } } });
    expect(ofEvent.data.map((d) => d.id)).toContain(deliveries[0]!.id);
    const tested = await vaultline.post('/webhook-endpoints/{endpoint_id}/test-events', { params: { path: { endpoint_id: endpoint.id } } });
    expect(tested).toMatchObject({ event_type: 'webhook_endpoint.test', endpoint_id: endpoint.id });
    const delivery = { endpoint_id: endpoint.id, delivery_id: deliveries[0]!.id };
    await vaultline.get('/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}', { params: { path: delivery } });
    await vaultline.post('/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', { params: { path: delivery } });
    const rotated = await vaultline.post('/webhook-endpoints/{endpoint_id}/rotate-secret', {
      params: { path: { endpoint_id: endpoint.id } },
      body: { grace_period_seconds: 0 },
    });
    expect(rotated.secret).not.toBe(endpoint.secret);
    await vaultline.delete('/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpoint.id } } });

    await vaultline.delete('/tokens/{token_id}', { params: { path: { token_id: token!.id } } });
  });

  it('flows, the flow matrix and processor accounts (with their signed notifications): each route answers as documented', async () => {
    const flows = await vaultline.get('/flows');
    expect(flows.data.map((flow) => flow.name)).toContain('simulator_manual_capture');
    await vaultline.post('/flows', {
      body: {
        name: 'sdk-manual',
        capture_mode: 'manual',
        steps: [
          { kind: 'authorization', processor: 'simulator' },
          { kind: 'capture', processor: 'simulator' },
        ],
      },
    });
    await vaultline.get('/flows/{flow_name}', { params: { path: { flow_name: 'sdk-manual' } } });
    const matrix = { default_flow: 'simulator_auto_capture', rules: [{ name: 'manual orders', when: { reference_prefix: 'manual-' }, flow: 'sdk-manual' }] };
    await vaultline.put('/flow-matrix', { body: matrix });
    expect(await vaultline.get('/flow-matrix')).toMatchObject(matrix);
    expect(await vaultline.post('/flow-matrix/explain', { body: { amount: 100, currency_code: 'EUR', reference: 'manual-7' } })).toMatchObject({
      flow: 'sdk-manual',
    });
    expect(await vaultline.get('/routing/stats', { params: { query: { group_by: 'processor' } } })).toMatchObject({
      object: 'routing_stats',
      group_by: 'processor',
    });

    // The processors an account may be added at, as the dashboard's form reads them: every one registered.
    expect((await vaultline.get('/processors')).data.map((processor) => processor.id)).toEqual(
      expect.arrayContaining(['simulator', 'adyen', 'checkout', 'stripe']),
    );
    const adyen = await vaultline.post('/processor-accounts', {
      body: { processor: 'adyen', name: 'adyen-sdk', credentials: { api_key: 'AQE_sdk_key', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY } },
    });
    const checkout = await vaultline.post('/processor-accounts', {
      body: {
        processor: 'checkout',
        name: 'checkout-sdk',
        credentials: { secret_key: 'sk_sbox_sdk_key', processing_channel_id: 'pc_sdk1', webhook_secret: CHECKOUT_WEBHOOK_SECRET },
      },
    });
    await vaultline.get('/processor-accounts/{processor_account_id}', { params: { path: { processor_account_id: adyen.id } } });
    expect((await vaultline.get('/processor-accounts')).data.map((account) => account.id)).toEqual(expect.arrayContaining([adyen.id, checkout.id]));
    await vaultline.patch('/processor-accounts/{processor_account_id}', {
      params: { path: { processor_account_id: adyen.id } },
      body: { name: 'adyen-sdk-renamed' },
    });

    // The processors' own notifications (public routes, signed with the account's secrets), about a payment we do not know.
    const item = {
      amount: { value: 100, currency: 'EUR' },
      eventCode: 'AUTHORISATION',
      eventDate: new Date().toISOString(),
      merchantAccountCode: 'ShopECOM',
      merchantReference: 'unknown',
      pspReference: 'QFQTPCQ8HXSKGK82',
      reason: '',
      success: 'true' as const,
    };
    // One route for every processor (the two paths /processor-notifications/adyen/… and /checkout/… are this route).
    await vaultline.post('/processor-notifications/{processor}/{processor_account_id}', {
      params: { path: { processor: 'adyen', processor_account_id: adyen.id } },
      body: adyenNotification(item, HMAC_KEY),
    });
    const webhook = checkoutWebhook(
      'payment_approved',
      { id: 'pay_unknownunknownunknown', reference: 'unknown', amount: 100, currency: 'EUR' },
      CHECKOUT_WEBHOOK_SECRET,
    );
    await vaultline.post('/processor-notifications/{processor}/{processor_account_id}', {
      params: { path: { processor: 'checkout', processor_account_id: checkout.id } },
      headers: { 'Cko-Signature': webhook.signature },
      body: JSON.parse(webhook.rawBody) as { id: string; type: string; data: Record<string, unknown> },
    });
    await vaultline.delete('/processor-accounts/{processor_account_id}', { params: { path: { processor_account_id: adyen.id } } });
  });

  it('payments of both interfaces, captured, charged again and listed: each route answers as documented', async () => {
    const source = { type: 'vaultline' as const };
    // A one-off on the manual-capture flow (reference manual-…), captured through the SDK.
    const manual = await vaultline.post('/payments/one-off', { body: { amount: 2500, currency_code: 'EUR', reference: 'manual-sdk-1', source } });
    await payInSession(sessionOf(manual));
    await paymentUntil(manual.id, 'authorized');
    await vaultline.post('/payments/{payment_id}/capture', { params: { path: { payment_id: manual.id } }, body: { reference: 'capture-sdk-1' } });
    await paymentUntil(manual.id, 'captured');
    expect((await vaultline.get('/payments/{payment_id}/transactions', { params: { path: { payment_id: manual.id } } })).data.map((t) => t.kind)).toEqual([
      'authorization',
      'capture',
    ]);

    const recurring = await vaultline.post('/payments/recurring', {
      body: { amount: 1000, currency_code: 'EUR', reference: 'sdk-recurring', source, recurring_frequency: 1, recurring_expiry: dayFromNow(365) },
    });
    const unscheduled = await vaultline.post('/payments/unscheduled', { body: { amount: 1000, currency_code: 'EUR', reference: 'sdk-unscheduled', source } });
    await Promise.all([payInSession(sessionOf(recurring)), payInSession(sessionOf(unscheduled))]);
    await Promise.all([paymentUntil(recurring.id, 'captured'), paymentUntil(unscheduled.id, 'captured')]);
    await vaultline.post('/payments/recurring/{payment_id}/subsequent', {
      params: { path: { payment_id: recurring.id }, header: { 'X-Test-Now': new Date(Date.now() + 2 * 86_400_000).toISOString() } },
      body: { amount: 900, currency_code: 'EUR', reference: 'sdk-recurring-2' },
    });
    await vaultline.post('/payments/unscheduled/{payment_id}/subsequent', {
      params: { path: { payment_id: unscheduled.id } },
      body: { amount: 900, currency_code: 'EUR', reference: 'sdk-unscheduled-2' },
    });

    // The earlier interface: a customer, a card stored on a first payment, then paid with in a session that offers it.
    const customer = await vaultline.post('/customers', { body: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    await vaultline.get('/customers/{customer_id}', { params: { path: { customer_id: customer.id } } });
    await vaultline.get('/customers');
    const first = await vaultline.post('/payments', {
      body: { amount: 1200, currency_code: 'EUR', confirm: true, customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } },
    });
    await payInSession(sessionOf(first as { action_requirement?: { session_id: string } }));
    const methods = await waitFor(
      async () => {
        const page = await vaultline.get('/customers/{customer_id}/payment-methods', { params: { path: { customer_id: customer.id } } });
        return page.data.length > 0 ? page.data : null;
      },
      20_000,
      50,
    );
    const method = methods[0]!;
    await vaultline.get('/payment-methods/{payment_method_id}', { params: { path: { payment_method_id: method.id } } });
    const again = await vaultline.post('/payments', { body: { amount: 800, currency_code: 'EUR', confirm: true, payment_method_id: method.id } });
    const againSession = sessionOf(again as { action_requirement?: { session_id: string } });
    await waitFor(() => vaultline.get('/sessions/{session_id}/status', { params: { path: { session_id: againSession } } }).catch(() => null), 5_000, 20);
    await vaultline.post('/sessions/{session_id}/stored-card', { params: { path: { session_id: againSession } }, body: {} });
    await paymentUntil(again.id, 'captured');
    await vaultline.delete('/payment-methods/{payment_method_id}', { params: { path: { payment_method_id: method.id } } });

    const listed = [];
    for await (const payment of vaultline.list('/payments', { params: { query: { limit: 3 } } })) listed.push(payment.id);
    expect(listed).toEqual(expect.arrayContaining([manual.id, recurring.id, unscheduled.id, first.id, again.id]));

    // After the sale: a refund of the captured manual payment and its listings; a cancel of an authorized one.
    const refund = await vaultline.post('/payments/{payment_id}/refunds', {
      params: { path: { payment_id: manual.id } },
      body: { amount: 500, reason: 'requested_by_customer' },
    });
    await vaultline.get('/refunds/{refund_id}', { params: { path: { refund_id: refund.id } } });
    await vaultline.get('/payments/{payment_id}/refunds', { params: { path: { payment_id: manual.id } } });
    await vaultline.get('/refunds', { params: { query: { payment_id: manual.id } } });
    const toCancel = await vaultline.post('/payments/one-off', { body: { amount: 700, currency_code: 'EUR', reference: 'manual-sdk-cancel', source } });
    await payInSession(sessionOf(toCancel));
    await paymentUntil(toCancel.id, 'authorized');
    expect(await vaultline.post('/payments/{payment_id}/cancel', { params: { path: { payment_id: toCancel.id } }, body: {} })).toMatchObject({
      status: 'canceled',
    });

    // Disputes: the simulator's test route opens one on the captured payment (test mode only).
    const dispute = await vaultline.post('/payments/{payment_id}/test/dispute', { params: { path: { payment_id: manual.id } }, body: {} });
    await vaultline.get('/disputes/{dispute_id}', { params: { path: { dispute_id: dispute.id } } });
    await vaultline.get('/disputes');
    await vaultline.get('/payments/{payment_id}/disputes', { params: { path: { payment_id: manual.id } } });
    // Answered: evidence staged at the processor (the simulator), then the dispute accepted.
    expect(
      await vaultline.post('/disputes/{dispute_id}/evidence', {
        params: { path: { dispute_id: dispute.id } },
        body: { evidence: { product_description: 'SDK order' }, submit: false },
      }),
    ).toMatchObject({ status: 'needs_response' });
    expect(await vaultline.post('/disputes/{dispute_id}/accept', { params: { path: { dispute_id: dispute.id } }, body: {} })).toMatchObject({ status: 'lost' });
    // An early fraud warning: the simulator's card 4000 0000 0000 5423 gets one at capture.
    const warned = await vaultline.post('/payments/one-off', { body: { amount: 600, currency_code: 'EUR', reference: 'sdk-fraud-warning', source } });
    await payInSession(sessionOf(warned), { ...CARD, number: '4000000000005423' });
    await paymentUntil(warned.id, 'captured');
    const warnings = await vaultline.get('/early-fraud-warnings', { params: { query: { payment_id: warned.id } } });
    expect(warnings.data).toHaveLength(1);
    await vaultline.get('/early-fraud-warnings/{early_fraud_warning_id}', { params: { path: { early_fraud_warning_id: warnings.data[0]!.id } } });

    // The hosted page's look, and the uploaded logo a session serves.
    await vaultline.patch('/settings/checkout', { body: { display_name: 'SDK shop', brand_color: '#1d4ed8', logo_image: PIXEL_PNG } });
    expect(await vaultline.get('/settings/checkout')).toMatchObject({ display_name: 'SDK shop' });
    // An image, not JSON: the recorded answer is what counts here, whatever the client makes of the bytes.
    await vaultline.request('GET', `/sessions/${sessionOf(toCancel)}/logo`).catch(() => undefined);

    // The consumer leaves a session that waits for a card: it ends, and its payment fails.
    const toLeave = await vaultline.post('/payments/one-off', { body: { amount: 300, currency_code: 'EUR', source: { type: 'vaultline' } } });
    await waitFor(() => vaultline.get('/sessions/{session_id}/status', { params: { path: { session_id: sessionOf(toLeave) } } }).catch(() => null), 5_000, 20);
    expect(await vaultline.post('/sessions/{session_id}/abandon', { params: { path: { session_id: sessionOf(toLeave) } } })).toMatchObject({
      state: 'abandoned',
    });
    await paymentUntil(toLeave.id, 'failed');
  });

  it("the merchant's own API keys and the dashboard's reports: each route answers as documented", async () => {
    const issued = await vaultline.post('/api-keys', { body: { label: 'sdk support desk' } });
    expect(issued).toMatchObject({ scopes: ['dashboard'], mode: 'test', label: 'sdk support desk' });
    const listed = await vaultline.get('/api-keys', { params: { query: { limit: 100 } } });
    expect(listed.data.map((key) => key.id)).toContain(issued.id);
    const rolled = await vaultline.post('/api-keys/{key_id}/roll', { params: { path: { key_id: issued.id } }, body: { expires_in_seconds: 3600 } });
    expect(rolled).toMatchObject({ rolled_from: issued.id, previous: { id: issued.id } });
    expect(await vaultline.delete('/api-keys/{key_id}', { params: { path: { key_id: issued.id } } })).toMatchObject({
      id: issued.id,
      revoked_at: expect.any(String),
    });
    await vaultline.delete('/api-keys/{key_id}', { params: { path: { key_id: rolled.id } } });

    const today = new Date().toISOString().slice(0, 10);
    const payments = await vaultline.get('/reports/payments', { params: { query: { from: today, to: today } } });
    expect(payments).toMatchObject({ object: 'payment_report', livemode: false, from: today, to: today });
    expect(payments.totals.count).toBeGreaterThan(0);
    const deliveries = await vaultline.get('/reports/webhook-deliveries', { params: { query: { to: today } } });
    expect(deliveries).toMatchObject({ object: 'webhook_delivery_report', to: today });
    expect(deliveries.days).toHaveLength(30);
  });

  it('when the API refuses a request, then the SDK throws a VaultlineError with its status, code, field and request id', async () => {
    const missing = await vaultline
      .get('/payments/{payment_id}', { params: { path: { payment_id: '0190f2a4-0000-7000-8000-000000000001' } } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(VaultlineError);
    expect(missing).toMatchObject({ status: 404, code: expect.stringMatching(/not_found/), requestId: expect.any(String) });

    const invalid = await vaultline
      .post('/payments/one-off', { body: { amount: -1, currency_code: 'EUR', source: { type: 'vaultline' } } })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 422, field: 'amount' });
    expect(String((invalid as VaultlineError).message)).toMatch(/^422 /);
  });

  it('when the connection drops after the API created a customer, then the SDK retries with the same Idempotency-Key and the API replays the first answer: one customer', async () => {
    const answers: Array<{ key: string | null; replayed: string | null }> = [];
    let dropped = false;
    const flaky = new Vaultline(MERCHANT_API_KEY, {
      baseUrl: running.system.baseUrl,
      initialDelayMs: 10,
      fetch: async (request) => {
        const response = await fetch(request);
        answers.push({ key: request.headers.get('idempotency-key'), replayed: response.headers.get('idempotent-replayed') });
        if (dropped) return response;
        dropped = true;
        throw new TypeError('fetch failed: the connection was reset');
      },
    });
    const name = `Retried ${Date.now()}`;
    const customer = await flaky.post('/customers', { body: { name } });

    expect(answers).toEqual([
      { key: expect.stringMatching(/^[0-9a-f-]{36}$/), replayed: null },
      { key: answers[0]!.key, replayed: 'true' },
    ]);
    const named = [];
    for await (const item of vaultline.list('/customers', { params: { query: { limit: 100 } } })) if (item.name === name) named.push(item.id);
    expect(named).toEqual([customer.id]);
  });

  it('when the API answers 429 with Retry-After, then the SDK waits that long and its retries succeed', async () => {
    const admin = new VaultlineAdmin(ADMIN_API_KEY, { baseUrl: running.system.baseUrl });
    const merchant = await admin.post('/admin/merchants', { body: { name: 'Rate limited', card_data_access: false } });
    await admin.patch('/admin/merchants/{merchant_id}', {
      params: { path: { merchant_id: merchant.id } },
      body: { rate_limit: { per_second: 0.5, burst: 1 } },
    });
    const answers: Array<{ status: number; retryAfter: string | null; at: number }> = [];
    const limited = new Vaultline(merchant.api_key, {
      baseUrl: running.system.baseUrl,
      maxRetries: 5,
      fetch: async (request) => {
        const response = await fetch(request);
        answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
        return response;
      },
    });

    // Two calls in a row on a bucket of one, refilled every 2 s: the second is refused, waits Retry-After, then succeeds.
    const first = await limited.get('/tokens');
    const second = await limited.get('/tokens');

    expect([first.object, second.object]).toEqual(['list', 'list']);
    expect(answers.map((answer) => answer.status)).toEqual([200, 429, 200]);
    const [, refused, retried] = answers;
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(Number(refused!.retryAfter) * 1000 - 50);
  });

  it('covers every merchant route of the OpenAPI document, and every answer the SDK got is the documented one', () => {
    const { covered, missing } = coverageOf(calls);
    console.log(
      `SDK route coverage: ${covered} of ${merchantRoutes.length} merchant routes called through the SDK with a 2xx answer (${calls.length} requests)`,
    );
    expect(missing).toEqual([]);
    expect(calls.filter((call) => call.problems.length > 0)).toEqual([]);
  });
});

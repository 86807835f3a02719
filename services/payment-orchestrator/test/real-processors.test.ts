import { newId, waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, adyenNotification, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from '../src/processors/checkout/dev/checkout.stand-in';
import { LIVE_MERCHANT, MERCHANT, oneOff, recurring, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { placeholderTransport } from './support/placeholder-transport';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const adyenCredentials = { api_key: 'AQE_engine_key_value', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const checkoutCredentials = { secret_key: 'sk_sbox_engine_key', processing_channel_id: 'pc_engine1', webhook_secret: 'whsec_engine0123456789abcdefghijklmnop' };

let first: AdyenStandIn;
let second: AdyenStandIn;
let cko: CheckoutStandIn;
let h: Harness;

/**
 * The harness has no forwarder: this transport fills the placeholders as it would (integer expiry for
 * Checkout.com), with the card the test chose, and sends to the stand-ins.
 */
let card: string = ADYEN_TEST_CARDS.approved;
/** How long the forward waits for a processor here (the forwarder's FORWARD_TIMEOUT, 30 s by default). */
const FORWARD_TIMEOUT_MS = 500;
const transport: ProcessorTransport = {
  forward: (request) =>
    placeholderTransport(
      { '*': { number: card, expiry_month: 3, expiry_year: 2030, security_code: '737' } },
      { integerExpiry: !request.url.endsWith('/v69/payments'), timeoutMs: FORWARD_TIMEOUT_MS },
    ).forward(request),
  send: (request) => placeholderTransport({}).send(request),
};

beforeAll(async () => {
  first = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  second = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  cko = await startCheckoutStandIn({
    secretKey: checkoutCredentials.secret_key,
    processingChannelId: checkoutCredentials.processing_channel_id,
    webhookSecret: checkoutCredentials.webhook_secret,
  });
});
afterAll(async () => {
  await Promise.all([first.stop(), second.stop(), cko.stop()]);
});
beforeEach(async () => {
  card = ADYEN_TEST_CARDS.approved;
  first.deliver = null;
  second.deliver = null;
  h = await startOrchestrator({
    transport,
    env: {
      FORWARD_EXTRA_DESTINATIONS: [`${first.baseUrl}/v69/payments`, `${second.baseUrl}/v69/payments`, `${cko.baseUrl}/payments`].join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    },
  });
});
afterEach(async () => {
  await h.stop();
});

/** The Adyen stand-in behind each account created here. */
const adyenOf = new Map<string, AdyenStandIn>();

async function account(processor: 'adyen' | 'checkout', baseUrl: string): Promise<string> {
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
    processor,
    name: processor,
    credentials: processor === 'adyen' ? adyenCredentials : checkoutCredentials,
    settings: { base_url: baseUrl },
  });
  expect(created.status).toBe(201);
  if (processor === 'adyen') adyenOf.set(created.body.id, baseUrl === first.baseUrl ? first : second);
  return created.body.id;
}

/**
 * Automatic capture on Adyen: Adyen captures by itself and notifies CAPTURE, which the payment waits for.
 * The accounts of an automatic flow have their stand-in's notifications delivered to them as Adyen would;
 * a manual flow's tests deliver them by hand.
 */
function notifyAutomatically(accounts: string[]): void {
  for (const id of accounts) {
    const standIn = adyenOf.get(id);
    if (standIn) standIn.deliver = (rawBody) => h.postPublic(`/processor-notifications/adyen/${id}`, rawBody);
  }
}

/** Pays as the harness does, then lets the Adyen stand-ins' notifications (the automatic captures' CAPTURE) arrive. */
async function payOneOff(...args: Parameters<Harness['payOneOff']>): Promise<Json> {
  const payment = await h.payOneOff(...args);
  await Promise.all([first.delivered(), second.delivered()]);
  await h.settle();
  return (await h.call(args[0], 'GET', `/payments/${payment.id}`)).body;
}

/**
 * The first payment of a series is challenged at Checkout.com (challenge_requested_mandate): the consumer
 * completes it on the stand-in's issuer page and comes back to the hosted page with cko-session-id.
 */
async function completeCheckoutChallenge(payment: Json): Promise<Json> {
  expect(payment.status).toBe('processing');
  const sent = cko.payments.find((p) => p.body.reference === payment.id)!;
  expect(sent.body['3ds']).toEqual({ enabled: true, challenge_indicator: 'challenge_requested_mandate' });
  const challenge = cko.challenges.find((c) => c.paymentId === sent.id)!;
  await h.returnFromBank(payment, await answerIssuerChallenge({ url: `${cko.baseUrl}/3ds/${challenge.sessionId}`, method: 'GET', data: {} }, 'completed'));
  await h.settle();
  return (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
}

async function routeTo(name: string, captureMode: 'automatic' | 'manual', authorizer: string, fallback: string[] = []): Promise<void> {
  if (captureMode === 'automatic') notifyAutomatically([authorizer, ...fallback]);
  const flow = await h.call(MERCHANT, 'POST', '/flows', {
    name,
    capture_mode: captureMode,
    steps: [
      { kind: 'authorization', processor: authorizer, fallback },
      { kind: 'capture', processor: authorizer },
    ],
  });
  expect(flow.status).toBe(201);
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).status).toBe(200);
}

const transactions = async (payment: Json) =>
  (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.processor, t.kind, t.status, t.failure_reason]);

describe('payments on real processors (stand-ins)', () => {
  it('when the flow matrix routes a one-off payment to an Adyen account, then Adyen authorizes it and, automatic capture, Adyen captures it', async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-auto', 'automatic', adyen);
    const before = first.payments.length;
    const payment = await payOneOff(MERCHANT, '411111******1111');
    expect([payment.status, payment.flow, payment.amount]).toEqual([
      'captured',
      'adyen-auto',
      { requested: 1250, authorized: 1250, captured: 1250, capturable: 0, disputed: 0, net: 1250 },
    ]);
    expect(await transactions(payment)).toEqual([
      [adyen, 'authorization', 'succeeded', null],
      [adyen, 'capture', 'succeeded', null],
    ]);
    const sent = first.payments.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ reference: payment.id, shopperInteraction: 'Ecommerce', amount: { value: 1250, currency: 'EUR' } });
    expect(sent[0]!.headers['idempotency-key']).toBe(`${payment.id}:authorization`);
  });

  it('when a live payment is created on an Adyen flow and a scheme rule then picks a simulator flow, then the payment fails simulator_not_allowed_in_live_mode with no transaction, never a simulated success', async () => {
    const created = await h.call(LIVE_MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'adyen-live',
      credentials: adyenCredentials,
      settings: { base_url: first.baseUrl },
    });
    expect(created.status).toBe(201);
    const flow = await h.call(LIVE_MERCHANT, 'POST', '/flows', {
      name: 'adyen-live',
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', processor: created.body.id },
        { kind: 'capture', processor: created.body.id },
      ],
    });
    expect(flow.status).toBe(201);
    const matrix = await h.call(LIVE_MERCHANT, 'PUT', '/flow-matrix', {
      default_flow: 'adyen-live',
      rules: [{ name: 'mastercard-simulated', when: { scheme: ['MASTERCARD'] }, flow: 'simulator_auto_capture' }],
    });
    expect(matrix.status).toBe(200);
    const before = first.payments.length;

    const payment = await h.call(LIVE_MERCHANT, 'POST', '/payments/one-off', oneOff());
    expect([payment.status, payment.body.flow]).toEqual([200, 'adyen-live']);
    await h.submitCard(payment.body, '555555******4444', { scheme: 'MASTERCARD', merchantId: LIVE_MERCHANT.merchantId });
    await h.settle();

    const settled = (await h.call(LIVE_MERCHANT, 'GET', `/payments/${payment.body.id}`)).body;
    expect([settled.status, settled.failure_reason]).toEqual(['failed', 'simulator_not_allowed_in_live_mode']);
    expect((await h.call(LIVE_MERCHANT, 'GET', `/payments/${payment.body.id}/transactions`)).body.data).toEqual([]);
    expect(first.payments.length).toBe(before);
  });

  it('when Adyen refuses the card, then the payment fails with the mapped reason and no other account is tried', async () => {
    const adyen = await account('adyen', first.baseUrl);
    const backup = await account('adyen', second.baseUrl);
    await routeTo('adyen-refusing', 'automatic', adyen, [backup]);
    card = ADYEN_TEST_CARDS.notEnoughBalance;
    const before = second.payments.length;
    const payment = await payOneOff(MERCHANT, '400000******9995');
    // A decline on the hosted page is one attempt: the payment waits for another card.
    expect([payment.status, payment.last_failed_attempt?.failure_reason]).toEqual(['processing', 'insufficient_funds']);
    expect(second.payments.length).toBe(before);
  });

  it('when the first account answers 503, then the same authorization goes to the fallback account: every attempt listed, one charge in total', async () => {
    const adyen = await account('adyen', first.baseUrl);
    const backup = await account('adyen', second.baseUrl);
    await routeTo('adyen-fallback', 'automatic', adyen, [backup]);
    const before = { first: first.payments.length, second: second.payments.length };
    first.failNext(1);
    const payment = await payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('captured');
    expect(await transactions(payment)).toEqual([
      [adyen, 'authorization', 'error', 'processor_unavailable'],
      [backup, 'authorization', 'succeeded', null],
      [backup, 'capture', 'succeeded', null],
    ]);
    expect({ first: first.payments.length - before.first, second: second.payments.length - before.second }).toEqual({ first: 0, second: 1 });
  });

  it('when an initial recurring payment on Checkout.com is followed by a subsequent one, then the subsequent is merchant-initiated and names the initial payment by the id Checkout.com gave it', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    const checkout = await account('checkout', cko.baseUrl);
    await routeTo('checkout-manual', 'manual', checkout);
    const initial = await completeCheckoutChallenge(await payOneOff(MERCHANT, '424242******4242', recurring(), '/payments/recurring'));
    expect(initial.status).toBe('authorized');
    const initialSent = cko.payments.find((p) => p.body.reference === initial.id)!;
    expect([initialSent.body.payment_type, initialSent.body.merchant_initiated, initialSent.body.capture]).toEqual(['Recurring', false, false]);
    const subsequent = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      { amount: 1000, currency_code: 'EUR' },
      { 'x-test-now': '2026-07-15T10:00:00Z' },
    );
    expect(subsequent.status).toBe(200);
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${subsequent.body.id}`)).body.status).toBe('authorized');
    const initialId = cko.payments.find((p) => p.body.reference === initial.id)!.id;
    const sent = cko.payments.at(-1)!.body;
    expect([sent.reference, sent.payment_type, sent.merchant_initiated, sent.previous_payment_id, 'cvv' in (sent.source as object)]).toEqual([
      subsequent.body.id,
      'Recurring',
      true,
      initialId,
      false,
    ]);
  });

  it('when the subsequent payment goes to another Checkout.com account than the initial one, then it names the initial payment by its scheme_id (the other account does not know the payment id)', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    const checkout = await account('checkout', cko.baseUrl);
    await routeTo('checkout-initial', 'manual', checkout);
    const initial = await completeCheckoutChallenge(await payOneOff(MERCHANT, '424242******4242', recurring(), '/payments/recurring'));
    const other = await account('checkout', cko.baseUrl);
    await routeTo('checkout-other', 'manual', other);
    const subsequent = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      { amount: 1000, currency_code: 'EUR' },
      { 'x-test-now': '2026-07-15T10:00:00Z' },
    );
    await h.settle();
    const initialId = cko.payments.find((p) => p.body.reference === initial.id)!.id;
    const sent = cko.payments.find((p) => p.body.reference === subsequent.body.id)!.body;
    expect(sent.previous_payment_id).toMatch(/^\d{15}$/);
    expect(sent.previous_payment_id).not.toBe(initialId);
  });
});

describe('a first account that answers after the engine stopped waiting (timeout, then fallback)', () => {
  it('when the first Adyen account authorises only after the timeout, then the fallback account authorizes the payment, and the late authorisation, once notified, is cancelled at the first: one charge kept', async () => {
    const adyen = await account('adyen', first.baseUrl);
    const backup = await account('adyen', second.baseUrl);
    await routeTo('adyen-late', 'automatic', adyen, [backup]);
    first.delayNext(FORWARD_TIMEOUT_MS * 2);
    const payment = await payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('captured');
    // The first account did authorise it, after the engine had moved on; both requests carried the step's idempotency key.
    const late = await waitFor(() => first.payments.find((p) => p.body.reference === payment.id));
    const chosen = second.payments.find((p) => p.body.reference === payment.id)!;
    expect([late.headers['idempotency-key'], chosen.headers['idempotency-key']]).toEqual([`${payment.id}:authorization`, `${payment.id}:authorization`]);

    // The chosen authorisation's own notification changes nothing.
    expect((await h.postPublic(`/processor-notifications/adyen/${backup}`, JSON.stringify(second.authorisationNotification(chosen.pspReference)))).text).toBe(
      '[accepted]',
    );
    expect(second.cancels).toHaveLength(0);

    const notification = JSON.stringify(first.authorisationNotification(late.pspReference));
    expect((await h.postPublic(`/processor-notifications/adyen/${adyen}`, notification)).text).toBe('[accepted]');
    expect(first.cancels.map((c) => [c.paymentPspReference, c.body.reference, c.body.merchantAccount, c.headers['idempotency-key']])).toEqual([
      [late.pspReference, payment.id, 'ShopECOM', `${payment.id}:void:${late.pspReference}`],
    ]);
    const after = [
      [adyen, 'authorization', 'error', 'processor_unavailable'],
      [backup, 'authorization', 'succeeded', null],
      [backup, 'capture', 'succeeded', null],
      [adyen, 'void', 'succeeded', null],
    ];
    expect(await transactions(payment)).toEqual(after);

    // A redelivery cancels nothing twice.
    expect((await h.postPublic(`/processor-notifications/adyen/${adyen}`, notification)).text).toBe('[accepted]');
    expect(first.cancels).toHaveLength(1);
    expect(await transactions(payment)).toEqual(after);
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('captured');
  });

  it('when the only Checkout.com account approves after the timeout, then the payment fails, and the late approval (payment_approved webhook) is voided', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    const checkout = await account('checkout', cko.baseUrl);
    await routeTo('checkout-late', 'manual', checkout);
    cko.delayNext(FORWARD_TIMEOUT_MS * 2);
    const payment = await payOneOff(MERCHANT, '424242******4242');
    expect([payment.status, payment.failure_reason]).toEqual(['failed', 'processor_error']);
    const late = await waitFor(() => cko.payments.find((p) => p.body.reference === payment.id));
    expect(late.headers['cko-idempotency-key']).toBe(`${payment.id}:authorization`);
    const webhook = cko.approvedWebhook(late.id);
    expect((await h.postPublic(`/processor-notifications/checkout/${checkout}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
    expect(cko.voids.map((v) => [v.paymentId, v.body.reference, v.headers['cko-idempotency-key']])).toEqual([
      [late.id, payment.id, `${payment.id}:void:${late.id}`],
    ]);
    expect(await transactions(payment)).toEqual([
      [checkout, 'authorization', 'error', 'processor_unavailable'],
      [checkout, 'void', 'succeeded', null],
    ]);
  });

  it('when an account notifies an authorisation of a payment whose authorization is not decided yet, then 503 stray_authorization_pending, so the processor sends it again later', async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-undecided', 'automatic', adyen);
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const notification = adyenNotification(
      {
        amount: { value: 1250, currency: 'EUR' },
        eventCode: 'AUTHORISATION',
        eventDate: '2026-06-01T10:00:00Z',
        merchantAccountCode: 'ShopECOM',
        merchantReference: created.body.id,
        pspReference: 'QWERTYUIOPASDFGH',
        reason: '',
        success: 'true',
      },
      HMAC_KEY,
    );
    const answer = await h.postPublic(`/processor-notifications/adyen/${adyen}`, JSON.stringify(notification));
    expect([answer.status, JSON.parse(answer.text).code]).toEqual([503, 'stray_authorization_pending']);
    expect(first.cancels.filter((c) => c.paymentPspReference === 'QWERTYUIOPASDFGH')).toHaveLength(0);
  });
});

describe('3RI on real processors', () => {
  it.each(['adyen', 'checkout'] as const)(
    'when a flow names a %s account in its authentication_3ri step, then it is refused: 422 processor_capability_missing naming the step',
    async (processor) => {
      const id = await account(processor, processor === 'adyen' ? first.baseUrl : cko.baseUrl);
      const answer = await h.call(MERCHANT, 'POST', '/flows', {
        name: `${processor}-3ri`,
        capture_mode: 'automatic',
        steps: [
          { kind: 'authentication_3ri', processor: id },
          { kind: 'authorization', processor: id },
          { kind: 'capture', processor: id },
        ],
      });
      expect([answer.status, answer.body.code, answer.body.field]).toEqual([422, 'processor_capability_missing', 'steps[0].processor']);
      expect(answer.body.detail).toContain('authentication_3ri');
    },
  );
});

describe('the security code, sent only while the vault keeps it', () => {
  async function payEnteredMinutesAgo(minutes: number): Promise<Json> {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.submitCard(created.body, '411111******1111', { submittedAt: new Date(h.clock.now().getTime() - minutes * 60_000).toISOString() });
    await h.settle();
    await first.delivered();
    await h.settle();
    return (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
  }

  it('when the authorization runs 10 minutes after the card was entered, then Adyen receives the cvc; 15 minutes after (the vault let it go), then none, and the payment still goes through', async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-cvc', 'automatic', adyen);
    const fresh = await payEnteredMinutesAgo(10);
    expect(fresh.status).toBe('captured');
    expect(first.payments.find((p) => p.body.reference === fresh.id)!.body.paymentMethod).toMatchObject({ cvc: '737' });
    const late = await payEnteredMinutesAgo(15);
    expect(late.status).toBe('captured');
    expect(first.payments.find((p) => p.body.reference === late.id)!.body.paymentMethod).not.toHaveProperty('cvc');
  });

  it("when less than the safety margin (30 s) of the 15 minutes is left, then no cvc is asked for: the vault's clock may be ahead of ours", async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-cvc-margin', 'automatic', adyen);
    const payment = await payEnteredMinutesAgo(14.6);
    expect(first.payments.find((p) => p.body.reference === payment.id)!.body.paymentMethod).not.toHaveProperty('cvc');
  });
});

describe("captures settled by the processors' notifications", () => {
  it('when a manual capture on Adyen is answered received, then the payment is capturing until the signed CAPTURE notification, then captured; a redelivery changes nothing', async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-manual', 'manual', adyen);
    const payment = await payOneOff(MERCHANT, '411111******1111');
    expect(payment.status).toBe('authorized');
    expect(first.payments.at(-1)!.body.additionalData).toEqual({ manualCapture: 'true' });
    const capturing = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, { amount: 700, currency_code: 'EUR' });
    expect(capturing.body.status).toBe('capturing');
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('capturing');

    const notification = first.notifications.at(-1)!;
    expect(notification.notificationItems[0]!.NotificationRequestItem).toMatchObject({
      eventCode: 'CAPTURE',
      merchantReference: payment.id,
      amount: { value: 700, currency: 'EUR' },
    });
    const answer = await h.postPublic(`/processor-notifications/adyen/${adyen}`, JSON.stringify(notification));
    expect(answer.text).toBe('[accepted]');
    await h.settle();
    const captured = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
    expect([captured.status, captured.amount.captured]).toEqual(['captured', 700]);
    await h.postPublic(`/processor-notifications/adyen/${adyen}`, JSON.stringify(notification));
    await h.settle();
    expect((await transactions(payment)).filter((t: Json[]) => t[1] === 'capture')).toEqual([[adyen, 'capture', 'succeeded', null]]);
    expect(h.events.filter((e) => e.type === 'payment.captured' && e.data.payment_id === payment.id)).toHaveLength(1);
  });

  it('when a forged CAPTURE notification arrives, then it is refused and the payment stays capturing', async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-manual-forged', 'manual', adyen);
    const payment = await payOneOff(MERCHANT, '411111******1111');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    const genuine = first.notifications.at(-1)!;
    const forged = JSON.parse(JSON.stringify(genuine)) as typeof genuine;
    forged.notificationItems[0]!.NotificationRequestItem.additionalData.hmacSignature = Buffer.alloc(32, 1).toString('base64');
    expect((await h.postPublic(`/processor-notifications/adyen/${adyen}`, JSON.stringify(forged))).text).toBe('[accepted]');
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('capturing');
  });

  it('when an automatic-capture payment on Checkout.com is authorized, then it settles as captured by the payment_captured webhook', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    const checkout = await account('checkout', cko.baseUrl);
    await routeTo('checkout-auto', 'automatic', checkout);
    const payment = await payOneOff(MERCHANT, '424242******4242');
    expect(payment.status).toBe('processing');
    const webhook = cko.webhooks.at(-1)!;
    expect((await h.postPublic(`/processor-notifications/checkout/${checkout}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.status).toBe('captured');
  });
});

describe('opened processor accounts', () => {
  it("when an account's credentials are rotated, then the next payment uses the new ones at once (the opened accounts are dropped on the write)", async () => {
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-rotated', 'automatic', adyen);
    expect((await payOneOff(MERCHANT, '411111******1111')).status).toBe('captured');
    await h.call(MERCHANT, 'PATCH', `/processor-accounts/${adyen}`, { credentials: { ...adyenCredentials, api_key: 'AQE_revoked_key_value' } });
    const refused = await payOneOff(MERCHANT, '411111******1111');
    expect([refused.status, refused.failure_reason]).toEqual(['failed', 'processor_authentication_failed']);
  });
});

describe('stored credentials of the earlier interface (POST /payments) on real processors', () => {
  /** Earlier rule 2 (the card entered and stored for COF payments), then rule 3 (a COF payment with that card, the consumer confirming it). */
  async function storeThenPayWithStoredCard(): Promise<{ storing: Json; cof: Json }> {
    const created = await h.call(MERCHANT, 'POST', '/payments', {
      amount: 1250,
      currency_code: 'EUR',
      confirm: true,
      payment_method_types: ['card'],
      store_payment_method_for: { use_case: 'cof_payments' },
    });
    expect(created.status).toBe(201);
    await h.submitCard(created.body, '424242******4242');
    await h.settle();
    const storing = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
    expect(storing).toMatchObject({ use_case: 'guest_payment', payment_method: { id: expect.any(String) } });
    const cof = await h.call(MERCHANT, 'POST', '/payments', { amount: 700, currency_code: 'EUR', confirm: true, payment_method_id: storing.payment_method.id });
    expect(cof.status).toBe(201);
    await h.confirmStoredCard(cof.body);
    await h.settle();
    return { storing, cof: (await h.call(MERCHANT, 'GET', `/payments/${cof.body.id}`)).body };
  }

  it('when a card is stored for COF payments and then pays a COF payment on Adyen, then the first is Ecommerce with CardOnFile and the COF payment ContAuth with CardOnFile and the security code', async () => {
    await routeTo('adyen-cof', 'automatic', await account('adyen', first.baseUrl));
    const { storing, cof } = await storeThenPayWithStoredCard();
    expect([cof.use_case, cof.status]).toEqual(['cof_payment', 'captured']);
    const sent = (payment: Json) => first.payments.find((p) => p.body.reference === payment.id)!.body;
    expect(sent(storing)).toMatchObject({ shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' });
    expect(sent(cof)).toMatchObject({
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'CardOnFile',
      amount: { value: 700, currency: 'EUR' },
      paymentMethod: { cvc: '737' },
    });
    expect(sent(cof)).not.toHaveProperty('additionalData');
  });

  it('when the same happens on Checkout.com, then the first is Regular, cardholder-initiated, store_for_future_use true, and the COF payment Regular, cardholder-initiated, source.stored true', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    await routeTo('checkout-cof', 'manual', await account('checkout', cko.baseUrl));
    const { storing, cof } = await storeThenPayWithStoredCard();
    expect([cof.use_case, cof.status]).toEqual(['cof_payment', 'authorized']);
    const sent = (payment: Json) => cko.payments.find((p) => p.body.reference === payment.id)!.body;
    expect(sent(storing)).toMatchObject({ payment_type: 'Regular', merchant_initiated: false, source: { store_for_future_use: true } });
    expect(sent(cof)).toMatchObject({ payment_type: 'Regular', merchant_initiated: false, source: { stored: true, cvv: '737' } });
    expect(sent(cof)).not.toHaveProperty('previous_payment_id');
  });
});

describe("3-D Secure decided by the processor's notification while the consumer is away", () => {
  /** A Checkout.com payment on the challenge card: the consumer answers the issuer's page, then Checkout.com's webhook of that outcome arrives first. */
  async function decidedByWebhook(
    outcome: 'completed' | 'failed',
    webhookType: string,
  ): Promise<{ waiting: Json; paymentId: string; back: Record<string, string> }> {
    card = CHECKOUT_TEST_CARDS.threeDsChallenge;
    const checkout = await account('checkout', cko.baseUrl);
    await routeTo(`checkout-3ds-${outcome}`, 'manual', checkout);
    const waiting = await payOneOff(MERCHANT, '454347******9996');
    expect(waiting.status).toBe('processing');
    const paymentId = cko.payments.find((p) => p.body.reference === waiting.id)!.id;
    const challenge = cko.challenges.find((c) => c.paymentId === paymentId)!;
    const back = await answerIssuerChallenge({ url: `${cko.baseUrl}/3ds/${challenge.sessionId}`, method: 'GET', data: {} }, outcome);
    const webhook = cko.webhooks.find((w) => w.rawBody.includes(`"${webhookType}"`) && w.rawBody.includes(paymentId))!;
    expect((await h.postPublic(`/processor-notifications/checkout/${checkout}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
    await h.settle();
    return { waiting, paymentId, back };
  }

  it("when payment_approved arrives while the consumer is away on the issuer's page, then it counts as the return: the payment is looked up by its id and authorized, and a later return changes nothing", async () => {
    const { waiting, paymentId, back } = await decidedByWebhook('completed', 'payment_approved');
    expect((await h.call(MERCHANT, 'GET', `/payments/${waiting.id}`)).body).toMatchObject({
      status: 'authorized',
      authentication: { status: 'authenticated', eci: '05' },
    });
    expect(cko.lookups).toContain(paymentId);
    const lookups = cko.lookups.length;
    await h.returnFromBank(waiting, back);
    await h.settle();
    expect(cko.lookups.length).toBe(lookups);
    expect((await h.call(MERCHANT, 'GET', `/payments/${waiting.id}/transactions`)).body.data.map((t: Json) => `${t.kind}:${t.status}`)).toEqual([
      'authentication_3ds:succeeded',
      'authorization:succeeded',
    ]);
  });

  it('when payment_authentication_failed arrives while the consumer is away, then the attempt fails authentication_failed without an authorization transaction, and the payment takes another card', async () => {
    const { waiting } = await decidedByWebhook('failed', 'payment_authentication_failed');
    expect((await h.call(MERCHANT, 'GET', `/payments/${waiting.id}`)).body).toMatchObject({
      status: 'processing',
      last_failed_attempt: { failure_reason: 'authentication_failed' },
    });
    expect((await h.call(MERCHANT, 'GET', `/payments/${waiting.id}/transactions`)).body.data.map((t: Json) => `${t.kind}:${t.status}`)).toEqual([
      'authentication_3ds:failed',
    ]);
  });

  it("when Adyen's AUTHORISATION arrives for a payment waiting on its consumer, then it does not count as the return (RedirectShopper named no pspReference): the payment waits for the redirectResult", async () => {
    card = ADYEN_TEST_CARDS.threeDsChallenge;
    const adyen = await account('adyen', first.baseUrl);
    await routeTo('adyen-3ds-wait', 'manual', adyen);
    // Adyen authenticates a web payment only with the browser's data, which the hosted page sends with the card.
    const created = (await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff())).body;
    const browser = {
      user_agent: 'Mozilla/5.0 Chrome/131.0',
      accept_header: 'text/html',
      language: 'en-GB',
      screen_width: 1280,
      screen_height: 720,
      color_depth: 24,
      time_zone_offset: -60,
      java_enabled: false,
      ip_address: '203.0.113.7',
    };
    const entered = {
      masked_account_number: '491761******0000',
      scheme: 'VISA',
      expiry_month: 12,
      expiry_year: 2034,
      cardholder_name: 'Ada Lovelace',
      submitted_at: new Date().toISOString(),
    };
    await h.redeliver(
      { session_id: created.action_requirement.session_id, payment_id: created.id, token_id: newId(), card: entered, browser },
      MERCHANT.merchantId,
      newId(),
    );
    await h.settle();
    const waiting = (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
    expect(waiting.status).toBe('processing');
    const psp = first.payments.find((p) => p.body.reference === waiting.id)!.pspReference;
    const notification = adyenNotification(
      {
        amount: { value: 1250, currency: 'EUR' },
        eventCode: 'AUTHORISATION',
        eventDate: new Date().toISOString(),
        merchantAccountCode: 'ShopECOM',
        merchantReference: waiting.id,
        pspReference: psp,
        reason: '',
        success: 'true',
      },
      HMAC_KEY,
    );
    const answered = await h.postPublic(`/processor-notifications/adyen/${adyen}`, JSON.stringify(notification));
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${waiting.id}`)).body.status).toBe('processing');
    expect(first.details).toHaveLength(0);
    // Not decided yet: Adyen is asked to send the notification again later.
    expect(answered.status).toBe(503);
  });
});

import { ADYEN_TEST_CARDS, adyenNotification, startAdyenStandIn, type AdyenStandIn } from '../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from '../src/processors/checkout/dev/checkout.stand-in';
import { CAPTURE_RETRIES, CAPTURE_SETTLEMENT_RECHECK_MS } from '../src/domain/payment/capture-retry';
import type { ProcessorTransport } from '../src/processors/transport-port';
import { MERCHANT, recurring, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';
import { placeholderTransport } from './support/placeholder-transport';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const adyenCredentials = { api_key: 'AQE_settle_key_value', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const checkoutCredentials = { secret_key: 'sk_sbox_settle_key', processing_channel_id: 'pc_settle1', webhook_secret: 'whsec_settle0123456789abcdefghijklmnop' };

let adyen: AdyenStandIn;
let adyenWithoutReference: AdyenStandIn;
let cko: CheckoutStandIn;
let h: Harness;
let card: string;
/** Every request sent without card data (captures, cancels, action reads), with its idempotency key. */
let sent: Array<{ url: string; method: string; key: string | undefined }>;

const transport: ProcessorTransport = {
  forward: (request) =>
    placeholderTransport(
      { '*': { number: card, expiry_month: 3, expiry_year: 2030, security_code: '737' } },
      { integerExpiry: !request.url.endsWith('/v69/payments') },
    ).forward(request),
  send: (request) => {
    sent.push({ url: request.url, method: request.method, key: request.headers['idempotency-key'] ?? request.headers['cko-idempotency-key'] });
    return placeholderTransport({}).send(request);
  },
};

beforeAll(async () => {
  adyen = await startAdyenStandIn({ apiKey: adyenCredentials.api_key, merchantAccount: 'ShopECOM', hmacKey: HMAC_KEY });
  adyenWithoutReference = await startAdyenStandIn({
    apiKey: adyenCredentials.api_key,
    merchantAccount: 'ShopECOM',
    hmacKey: HMAC_KEY,
    networkTxReference: false,
  });
  cko = await startCheckoutStandIn({
    secretKey: checkoutCredentials.secret_key,
    processingChannelId: checkoutCredentials.processing_channel_id,
    webhookSecret: checkoutCredentials.webhook_secret,
  });
});
afterAll(async () => {
  await Promise.all([adyen.stop(), adyenWithoutReference.stop(), cko.stop()]);
});
beforeEach(async () => {
  card = ADYEN_TEST_CARDS.approved;
  sent = [];
  h = await startOrchestrator({
    transport,
    env: {
      FORWARD_EXTRA_DESTINATIONS: [`${adyen.baseUrl}/v69/payments`, `${adyenWithoutReference.baseUrl}/v69/payments`, `${cko.baseUrl}/payments`].join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    },
  });
});
afterEach(async () => {
  await h.stop();
});

async function account(processor: 'adyen' | 'checkout', baseUrl: string): Promise<string> {
  const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
    processor,
    name: `${processor} ${baseUrl}`,
    credentials: processor === 'adyen' ? adyenCredentials : checkoutCredentials,
    settings: { base_url: baseUrl },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function routeTo(captureMode: 'automatic' | 'manual', authorizer: string, fallback: string[] = []): Promise<void> {
  const name = `flow-${captureMode}-${Math.random().toString(36).slice(2, 8)}`;
  expect(
    (
      await h.call(MERCHANT, 'POST', '/flows', {
        name,
        capture_mode: captureMode,
        steps: [
          { kind: 'authorization', processor: authorizer, fallback },
          { kind: 'capture', processor: authorizer },
        ],
      })
    ).status,
  ).toBe(201);
  expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).status).toBe(200);
}

const get = async (payment: Json): Promise<Json> => (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
const captures = async (payment: Json) =>
  (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data
    .filter((t: Json) => t.kind === 'capture')
    .map((t: Json) => [t.status, t.failure_reason]);
const paymentEvents = (payment: Json) => h.events.filter((e) => e.type.startsWith('payment.') && e.data.payment_id === payment.id).map((e) => e.type);

/** An Adyen capture notification of the payment's authorization, signed with the account's key. */
function adyenCaptureNotification(
  payment: Json,
  authorizationPsp: string,
  eventCode: 'CAPTURE' | 'CAPTURE_FAILED',
  success: 'true' | 'false',
  reason: string,
  pspReference: string,
) {
  return JSON.stringify(
    adyenNotification(
      {
        amount: { value: 1250, currency: 'EUR' },
        eventCode,
        eventDate: '2026-06-01T10:00:00+02:00',
        merchantAccountCode: 'ShopECOM',
        merchantReference: payment.id,
        originalReference: authorizationPsp,
        pspReference,
        reason,
        success,
      },
      HMAC_KEY,
    ),
  );
}

async function authorizedOnAdyen(): Promise<{ payment: Json; accountId: string; psp: string }> {
  const accountId = await account('adyen', adyen.baseUrl);
  await routeTo('manual', accountId);
  const payment = await h.payOneOff(MERCHANT, '411111******1111');
  expect(payment.status).toBe('authorized');
  return { payment, accountId, psp: adyen.payments.at(-1)!.pspReference };
}

describe('a capture whose answer is ambiguous (timeout, 5xx)', () => {
  it('when Adyen answers the capture 503 twice, then the payment stays capturing, the capture goes again with the same idempotency key after a backoff, and settles by the notification', async () => {
    const { payment, accountId } = await authorizedOnAdyen();
    adyen.failNext(2);
    expect((await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {})).body.status).toBe('capturing');
    await h.settle();
    expect((await get(payment)).status).toBe('capturing');
    await h.advance(1_000);
    expect((await get(payment)).status).toBe('capturing');
    await h.advance(2_000);
    const captureCalls = sent.filter((call) => call.url.endsWith('/captures'));
    expect(captureCalls.map((call) => call.key)).toEqual([`${payment.id}:capture`, `${payment.id}:capture`, `${payment.id}:capture`]);
    expect(await captures(payment)).toEqual([
      ['error', 'processor_unavailable'],
      ['error', 'processor_unavailable'],
    ]);

    expect((await h.postPublic(`/processor-notifications/adyen/${accountId}`, JSON.stringify(adyen.notifications.at(-1)))).text).toBe('[accepted]');
    await h.settle();
    expect((await get(payment)).status).toBe('captured');
    expect(paymentEvents(payment)).not.toContain('payment.failed');
  });

  it('when every capture attempt answers 503, then after the bounded retries the payment is still capturing (never failed) and settles when Adyen reports the capture of its authorization', async () => {
    const { payment, accountId, psp } = await authorizedOnAdyen();
    adyen.failNext(1_000);
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    for (let i = 0; i < CAPTURE_RETRIES + 2; i++) await h.advance(20_000);
    await h.advance(CAPTURE_SETTLEMENT_RECHECK_MS);
    adyen.failNext(0);
    expect((await get(payment)).status).toBe('capturing');
    expect(sent.filter((call) => call.url.endsWith('/captures'))).toHaveLength(CAPTURE_RETRIES + 1);
    expect(await captures(payment)).toHaveLength(CAPTURE_RETRIES + 1);

    await h.postPublic(`/processor-notifications/adyen/${accountId}`, adyenCaptureNotification(payment, psp, 'CAPTURE', 'true', '', 'CAPTUREPSPLATE01'));
    await h.settle();
    const captured = await get(payment);
    expect([captured.status, captured.amount.captured]).toEqual(['captured', 1250]);
  });
});

/** The pspReference Adyen gave the capture (its /captures answer): its CAPTURE and CAPTURE_FAILED notifications carry it. */
const capturePsp = () => adyen.notifications.at(-1)!.notificationItems[0]!.NotificationRequestItem.pspReference;

describe("Adyen's recapture after CAPTURE_FAILED (design: the failed capture counts after all, with payment.captured)", () => {
  it('when CAPTURE_FAILED arrives and then CAPTURE "Transaction Recaptured", then the capture first fails (the payment stays authorized, payment.capture_failed) and then is captured, each with its event', async () => {
    const { payment, accountId, psp } = await authorizedOnAdyen();
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    await h.postPublic(
      `/processor-notifications/adyen/${accountId}`,
      adyenCaptureNotification(payment, psp, 'CAPTURE_FAILED', 'true', 'Issuer Unavailable', capturePsp()),
    );
    await h.settle();
    expect([(await get(payment)).status, (await get(payment)).amount.capturable]).toEqual(['authorized', 1250]);

    const recaptured = adyenCaptureNotification(payment, psp, 'CAPTURE', 'true', 'Transaction Recaptured', capturePsp());
    await h.postPublic(`/processor-notifications/adyen/${accountId}`, recaptured);
    await h.postPublic(`/processor-notifications/adyen/${accountId}`, recaptured);
    await h.settle();
    const captured = await get(payment);
    expect([captured.status, captured.amount.captured, captured.failure_reason]).toEqual(['captured', 1250, undefined]);
    expect(paymentEvents(payment)).toEqual(['payment.processing', 'payment.authorized', 'payment.capturing', 'payment.capture_failed', 'payment.captured']);
    expect(await captures(payment)).toEqual([
      ['failed', 'capture_failed'],
      ['succeeded', null],
    ]);
  });

  it('when the recapture success arrives before the CAPTURE_FAILED, then the payment is captured and the late failure changes nothing', async () => {
    const { payment, accountId, psp } = await authorizedOnAdyen();
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    await h.postPublic(
      `/processor-notifications/adyen/${accountId}`,
      adyenCaptureNotification(payment, psp, 'CAPTURE', 'true', 'Transaction Recaptured', capturePsp()),
    );
    await h.postPublic(
      `/processor-notifications/adyen/${accountId}`,
      adyenCaptureNotification(payment, psp, 'CAPTURE_FAILED', 'true', 'Issuer Unavailable', capturePsp()),
    );
    await h.settle();
    await h.advance(CAPTURE_SETTLEMENT_RECHECK_MS);
    expect((await get(payment)).status).toBe('captured');
    expect(paymentEvents(payment)).toEqual(['payment.processing', 'payment.authorized', 'payment.capturing', 'payment.captured']);
  });
});

describe('Adyen automatic capture and the network transaction reference', () => {
  it('when an automatic-capture flow authorizes on Adyen, then the request says captureDelayHours 0', async () => {
    const accountId = await account('adyen', adyen.baseUrl);
    await routeTo('automatic', accountId);
    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    expect(adyen.payments.at(-1)!.body.captureDelayHours).toBe(0);
    // Captured once Adyen's CAPTURE notification of its own capture says so.
    await h.postPublic(`/processor-notifications/adyen/${accountId}`, JSON.stringify(adyen.notifications.at(-1)));
    await h.settle();
    expect((await get(payment)).status).toBe('captured');
  });

  it('when an initial recurring payment is Authorised without networkTxReference, then it fails processor_configuration at once and the fallback account is not tried', async () => {
    const without = await account('adyen', adyenWithoutReference.baseUrl);
    const fallback = await account('adyen', adyen.baseUrl);
    await routeTo('automatic', without, [fallback]);
    const before = adyen.payments.length;
    const created = await h.call(MERCHANT, 'POST', '/payments/recurring', recurring());
    await h.submitCard(created.body, '411111******1111');
    await h.settle();
    const payment = await get(created.body);
    expect([payment.status, payment.failure_reason]).toEqual(['failed', 'processor_configuration']);
    expect(adyen.payments.length).toBe(before);
  });
});

describe('Checkout.com captures settled by the sweep when no webhook came', () => {
  it("when a manual capture's payment_captured webhook never arrives, then after the recheck interval the payment's actions are read and the payment is captured", async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    await routeTo('manual', await account('checkout', cko.baseUrl));
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/capture`, {});
    await h.settle();
    expect((await get(payment)).status).toBe('capturing');
    await h.advance(CAPTURE_SETTLEMENT_RECHECK_MS);
    expect(sent.filter((call) => call.method === 'GET' && call.url.endsWith('/actions'))).toHaveLength(1);
    const captured = await get(payment);
    expect([captured.status, captured.amount.captured]).toEqual(['captured', 1250]);
  });

  it('when an automatic capture is not reported by webhook, then the sweep finds the Capture action of the payment and settles it', async () => {
    card = CHECKOUT_TEST_CARDS.approved;
    await routeTo('automatic', await account('checkout', cko.baseUrl));
    const payment = await h.payOneOff(MERCHANT, '424242******4242');
    expect(payment.status).toBe('processing');
    await h.advance(CAPTURE_SETTLEMENT_RECHECK_MS);
    expect((await get(payment)).status).toBe('captured');
  });
});

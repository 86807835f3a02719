import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  CHECKOUT_TEST_CARDS,
  startCheckoutStandIn,
  type CheckoutStandIn,
} from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';
import { accountNumberNeedles, distinctiveCodeNeedles, isSqliteFile, scanDirectory, scanText } from './support/leak-scan';
import { capturedLogLines } from './support/log-capture';
import { startSystem, type RunningSystem } from './support/merchant-api';
import type { Browser } from 'playwright-core';
import {
  PAYMENT_CVC,
  PAYMENT_ENV,
  PaymentsApi,
  dayFromNow,
  launchChromium,
  payOnHostedPage,
  sessionOf,
  submitCard,
  timeFromNow,
  type PaymentView,
} from './support/payment-scenario';

// Every service's logger writes its final, redacted lines into the capture (level and redaction stay the
// real ones), so the leak scan reads the orchestrator's own log output.
jest.mock('../libs/logger/src/create-logger', () =>
  jest.requireActual<typeof import('./support/log-capture')>('./support/log-capture').capturingLoggerModule(),
);

/** Short enough for a stand-in to answer after it in a test, long enough for a loaded machine (the default is 30 s). */
const FORWARD_TIMEOUT_MS = 4_000;
const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_adyen_key_7781', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_checkout_key', processing_channel_id: 'pc_e2e1', webhook_secret: 'whsec_e2e_checkout0123456789abcdefghij' };

/**
 * The embedded profile with both stand-ins as processors: the orchestrator builds the requests with
 * placeholders, the forwarder (its internal API, in process) fills them from the vault's token and
 * sends them to the stand-ins, which see the real card number; the orchestrator never does.
 */
describe('payments on Adyen and Checkout.com stand-ins, embedded profile', () => {
  let adyen: AdyenStandIn;
  let backup: AdyenStandIn;
  let checkout: CheckoutStandIn;
  let running: RunningSystem;
  let api: PaymentsApi;

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY });
    backup = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY });
    checkout = await startCheckoutStandIn({
      secretKey: CHECKOUT.secret_key,
      processingChannelId: CHECKOUT.processing_channel_id,
      webhookSecret: CHECKOUT.webhook_secret,
    });
    running = await startSystem(
      {
        ...PAYMENT_ENV,
        FORWARD_HTTPS_ONLY: 'false',
        FORWARD_EXTRA_DESTINATIONS: [`${adyen.baseUrl}/v69/payments`, `${backup.baseUrl}/v69/payments`, `${checkout.baseUrl}/payments`].join(','),
        PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'debug',
        FORWARD_TIMEOUT: `${FORWARD_TIMEOUT_MS}ms`,
      },
      'vaultline-real-processors-',
    );
    api = new PaymentsApi(running.merchant);
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    await Promise.all([adyen?.stop(), backup?.stop(), checkout?.stop()]);
  });

  async function account(processor: 'adyen' | 'checkout', baseUrl: string): Promise<string> {
    const answer = await running.merchant.call('POST', '/processor-accounts', {
      json: { processor, name: processor, credentials: processor === 'adyen' ? ADYEN : CHECKOUT, settings: { base_url: baseUrl } },
    });
    expect(answer.status).toBe(201);
    const id = answer.json<{ id: string }>().id;
    // Adyen notifies the account's endpoint (its CAPTURE confirms an automatic capture), through the gateway.
    const standIn = [adyen, backup].find((candidate) => candidate.baseUrl === baseUrl);
    if (standIn) standIn.webhookUrl = `${running.system.baseUrl}/processor-notifications/adyen/${id}`;
    return id;
  }

  async function routeAll(name: string, captureMode: 'automatic' | 'manual', authorizer: string, fallback: string[] = []): Promise<void> {
    await api.ok('POST', '/flows', {
      json: {
        name,
        capture_mode: captureMode,
        steps: [
          { kind: 'authorization', processor: authorizer, fallback },
          { kind: 'capture', processor: authorizer },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: name, rules: [] } });
  }

  async function pay(card: string): Promise<PaymentView> {
    const created = await api.ok('POST', '/payments/one-off', {
      json: { amount: 1250, currency_code: 'EUR', reference: `order-${card.slice(-4)}`, source: { type: 'vaultline' } },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    return created;
  }

  it('when the flow matrix routes a one-off payment to Adyen, then the stand-in receives the real card from the forwarder and the payment is captured', async () => {
    const adyenAccount = await account('adyen', adyen.baseUrl);
    await routeAll('adyen-auto', 'automatic', adyenAccount);
    const created = await pay(ADYEN_TEST_CARDS.approved);
    const payment = await api.until(created.id, 'captured');
    expect(payment.flow).toBe('adyen-auto');
    const sent = adyen.payments.at(-1)!;
    expect(sent.body).toMatchObject({
      reference: created.id,
      merchantAccount: 'ShopECOM',
      shopperInteraction: 'Ecommerce',
      paymentMethod: { type: 'scheme', number: ADYEN_TEST_CARDS.approved, expiryMonth: '12', expiryYear: '2034', cvc: PAYMENT_CVC },
    });
    expect(sent.headers['idempotency-key']).toBe(`${created.id}:authorization`);
    const transactions = await api.transactions(created.id);
    expect(transactions.map((t) => [t.processor, t.kind, t.status])).toEqual([
      [adyenAccount, 'authorization', 'succeeded'],
      [adyenAccount, 'capture', 'succeeded'],
    ]);
  });

  it('when a consumer pays in Chromium on the hosted page and the flow matrix routes the payment to Adyen, then the page shows the success and Adyen received the real card through the forwarder', async () => {
    const adyenAccount = await account('adyen', adyen.baseUrl);
    await routeAll('adyen-browser', 'automatic', adyenAccount);
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const created = await api.ok('POST', '/payments/one-off', {
        json: { amount: 1999, currency_code: 'EUR', reference: 'order-browser', source: { type: 'vaultline' } },
      });
      const page = await payOnHostedPage(browser, running.system.baseUrl, sessionOf(created), ADYEN_TEST_CARDS.approved);
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 30_000 });
      expect(await api.until(created.id, 'captured')).toMatchObject({ flow: 'adyen-browser', amount: { requested: 1999, authorized: 1999, captured: 1999 } });
      expect(adyen.payments.at(-1)!.body).toMatchObject({
        reference: created.id,
        paymentMethod: { number: ADYEN_TEST_CARDS.approved, cvc: PAYMENT_CVC, holderName: 'Ada Lovelace' },
      });
      await page.close();
    } finally {
      await browser?.close();
    }
  }, 60_000);

  it('when the first Adyen account answers 503, then the authorization falls back to the second: both attempts listed, one charge in total', async () => {
    const first = await account('adyen', adyen.baseUrl);
    const second = await account('adyen', backup.baseUrl);
    await routeAll('adyen-fallback', 'automatic', first, [second]);
    const before = { first: adyen.payments.length, second: backup.payments.length };
    adyen.failNext(1);
    const created = await pay(ADYEN_TEST_CARDS.approved);
    await api.until(created.id, 'captured');
    expect((await api.transactions(created.id)).map((t) => [t.processor, t.kind, t.status])).toEqual([
      [first, 'authorization', 'error'],
      [second, 'authorization', 'succeeded'],
      [second, 'capture', 'succeeded'],
    ]);
    expect({ first: adyen.payments.length - before.first, second: backup.payments.length - before.second }).toEqual({ first: 0, second: 1 });
  });

  it("when the first Adyen account answers only after the forwarder's timeout, then the second authorizes, and the first one's late authorisation, notified through the gateway, is cancelled there", async () => {
    const first = await account('adyen', adyen.baseUrl);
    const second = await account('adyen', backup.baseUrl);
    await routeAll('adyen-late', 'automatic', first, [second]);
    adyen.delayNext(FORWARD_TIMEOUT_MS + 1_000);
    const created = await pay(ADYEN_TEST_CARDS.approved);
    await api.until(created.id, 'captured');
    const late = await waitFor(() => adyen.payments.find((p) => p.body.reference === created.id), 10_000);
    const delivered = await fetch(`${running.system.baseUrl}/processor-notifications/adyen/${first}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(adyen.authorisationNotification(late.pspReference)),
    });
    expect([delivered.status, await delivered.text()]).toEqual([200, '[accepted]']);
    expect(adyen.cancels.filter((c) => c.paymentPspReference === late.pspReference)).toHaveLength(1);
    expect((await api.transactions(created.id)).map((t) => [t.processor, t.kind, t.status])).toEqual([
      [first, 'authorization', 'error'],
      [second, 'authorization', 'succeeded'],
      [second, 'capture', 'succeeded'],
      [first, 'void', 'succeeded'],
    ]);
  }, 30_000);

  it('when a manual-capture payment on Checkout.com is captured, then it is capturing until the signed payment_captured webhook arrives through the gateway, then captured', async () => {
    const checkoutAccount = await account('checkout', checkout.baseUrl);
    await routeAll('checkout-manual', 'manual', checkoutAccount);
    const created = await pay(CHECKOUT_TEST_CARDS.approved);
    await api.until(created.id, 'authorized');
    expect(checkout.payments.at(-1)!.body).toMatchObject({
      capture: false,
      source: { number: CHECKOUT_TEST_CARDS.approved, expiry_month: 12, expiry_year: 2034, cvv: PAYMENT_CVC },
    });
    await api.ok('POST', '/payments/{payment_id}/capture', { params: { payment_id: created.id }, json: {} });
    await api.until(created.id, 'capturing');
    const webhook = checkout.webhooks.at(-1)!;
    const delivered = await fetch(`${running.system.baseUrl}/processor-notifications/checkout/${checkoutAccount}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cko-signature': webhook.signature },
      body: webhook.rawBody,
    });
    expect(delivered.status).toBe(200);
    const forged = await fetch(`${running.system.baseUrl}/processor-notifications/checkout/${checkoutAccount}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cko-signature': '0'.repeat(64) },
      body: webhook.rawBody,
    });
    expect(forged.status).toBe(401);
    await api.until(created.id, 'captured');
  });

  it('when an initial recurring payment on Checkout.com is followed by a subsequent one, then the initial is challenged as a mandate, and the subsequent is merchant-initiated, without cvv, and its previous_payment_id is the id Checkout.com returned for the initial payment', async () => {
    const checkoutAccount = await account('checkout', checkout.baseUrl);
    await routeAll('checkout-recurring', 'manual', checkoutAccount);
    const initial = await api.ok('POST', '/payments/recurring', {
      json: {
        amount: 1999,
        currency_code: 'EUR',
        reference: 'subscription-cko-1',
        source: { type: 'vaultline' },
        recurring_frequency: 30,
        recurring_expiry: dayFromNow(90),
      },
    });
    await submitCard(running.system.baseUrl, sessionOf(initial), CHECKOUT_TEST_CARDS.approved);
    const initialAtCheckout = await waitFor(() => checkout.payments.find((p) => p.body.reference === initial.id), 10_000);
    // The first payment of a series asks for the challenge as a mandate ("to prevent subsequent CNP transactions from being declined").
    expect(initialAtCheckout.body).toMatchObject({
      payment_type: 'Recurring',
      merchant_initiated: false,
      '3ds': { enabled: true, challenge_indicator: 'challenge_requested_mandate' },
      source: { cvv: PAYMENT_CVC },
    });
    const challenge = await waitFor(() => checkout.challenges.find((c) => c.paymentId === initialAtCheckout.id), 10_000);
    const returned = await answerIssuerChallenge({ url: `${checkout.baseUrl}/3ds/${challenge.sessionId}`, method: 'GET', data: {} }, 'completed');
    // The consumer's browser back on the hosted page's return route, as the issuer's redirect sends it.
    await fetch(`${running.system.baseUrl}/checkout/${sessionOf(initial)}/return?cko-session-id=${returned['cko-session-id']}`);
    await api.until(initial.id, 'authorized');

    const answer = await api.call('POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1999, currency_code: 'EUR' },
      headers: { 'X-Test-Now': timeFromNow(31) },
    });
    expect(answer.status).toBe(200);
    const subsequent = answer.json<PaymentView>();
    await api.until(subsequent.id, 'authorized');
    const sent = checkout.payments.find((p) => p.body.reference === subsequent.id)!.body;
    expect(sent).toMatchObject({
      payment_type: 'Recurring',
      merchant_initiated: true,
      previous_payment_id: initialAtCheckout.id,
      source: { number: CHECKOUT_TEST_CARDS.approved },
    });
    expect(sent.source).not.toHaveProperty('cvv');
  });

  it("when the payments above ran, then the orchestrator's log output, at debug level, holds none of the card numbers nor the security code the processors received", () => {
    const orchestratorLines = capturedLogLines.filter((line) => (JSON.parse(line) as { service?: string }).service === 'payment-orchestrator');
    // The lines are there to be read: the requests the orchestrator served (processor accounts, flows, payments,
    // notifications), which the embedded profile logs once, at the gateway that mounts its routes.
    expect(orchestratorLines.length).toBeGreaterThan(0);
    expect(capturedLogLines.length).toBeGreaterThan(20);
    expect(capturedLogLines.join('\n')).toMatch(/processor-accounts/);
    const needles = [...accountNumberNeedles([ADYEN_TEST_CARDS.approved, CHECKOUT_TEST_CARDS.approved]), ...distinctiveCodeNeedles([PAYMENT_CVC])];
    expect(orchestratorLines.flatMap((line, i) => scanText(`orchestrator log line ${i}`, line, needles))).toEqual([]);
    // Nor does any other service's line: the forwarder saw the card and logs none of it either.
    expect(capturedLogLines.flatMap((line, i) => scanText(`log line ${i}`, line, needles))).toEqual([]);
  });

  it("when the payments above ran, then the orchestrator's store (its SQLite file, WAL included) holds none of the card numbers the processors received", () => {
    const scan = scanDirectory(
      running.dataDir,
      accountNumberNeedles([ADYEN_TEST_CARDS.approved, CHECKOUT_TEST_CARDS.approved]),
      (name) => name.startsWith('payment-orchestrator') && isSqliteFile(name),
    );
    expect(scan.files).toContain('payment-orchestrator.db');
    expect(scan.hits).toEqual([]);
    // The stand-ins did receive them: the scan looks for something that was there to find.
    expect(adyen.payments.some((p) => (p.body.paymentMethod as { number?: string }).number === ADYEN_TEST_CARDS.approved)).toBe(true);
  });
});

import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { createMerchantOfBothModes, startSystem, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, dayFromNow, sessionOf, submitCard, timeFromNow, type PaymentView } from './support/payment-scenario';

/**
 * The attack of issue 23, replayed: a merchant's test key against its own live payment. A live monthly
 * subscription is paid on an Adyen stand-in (a live processor account whose base_url the operator allowed),
 * then the test key reads it, captures it, charges it two months ahead on the test clock, rewrites the live
 * account's credentials and puts the flow matrix: every one is refused or stays in test mode, the stand-in
 * receives nothing, and the next live monthly charge goes through on time.
 */
const ADYEN = {
  api_key: 'AQE_e2e_live_adyen_key_5511',
  merchant_account: 'ShopECOM',
  hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const DAY_MS = 86_400_000;

/** Everything but Date keeps running on real time: the services' polling, sockets and timeouts are not the subject. */
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

describe("a merchant's test key against its own live monthly payment on an Adyen stand-in", () => {
  let adyen: AdyenStandIn;
  let running: RunningSystem;
  let merchant: MerchantOfBothModes;
  let live: PaymentsApi;
  let test: PaymentsApi;
  let account: string;
  let initial: PaymentView;

  /** Every request the stand-in answered: authorisations, captures (each makes a notification) and cancels. */
  const received = () => ({ payments: adyen.payments.length, captures: adyen.notifications.length, cancels: adyen.cancels.length });

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: ADYEN.hmac_key });
    running = await startSystem(
      { ...PAYMENT_ENV, FORWARD_HTTPS_ONLY: 'false', FORWARD_EXTRA_DESTINATIONS: `${adyen.baseUrl}/v69/payments`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' },
      'vaultline-live-payment-',
    );
    merchant = await createMerchantOfBothModes(running.system, 'Monthly shop');
    live = new PaymentsApi(merchant.live);
    test = new PaymentsApi(merchant.test);
  }, 60_000);
  afterAll(async () => {
    jest.useRealTimers();
    await running?.stop();
    await adyen?.stop();
  });

  it('when a live processor account on the Adyen stand-in routes a live monthly payment, then the consumer pays, the stand-in charges the card and the payment is captured in live mode', async () => {
    const created = await live.ok<{ id: string; livemode: boolean }>('POST', '/processor-accounts', {
      json: { processor: 'adyen', name: 'Adyen live', credentials: ADYEN, settings: { base_url: adyen.baseUrl } },
    });
    expect(created.livemode).toBe(true);
    account = created.id;
    // Adyen notifies the account's endpoint (its CAPTURE confirms an automatic capture), through the gateway.
    adyen.webhookUrl = `${running.system.baseUrl}/processor-notifications/adyen/${account}`;
    await live.ok('POST', '/flows', {
      json: {
        name: 'adyen-live',
        capture_mode: 'automatic',
        steps: [
          { kind: 'authorization', processor: account },
          { kind: 'capture', processor: account },
        ],
      },
    });
    await live.ok('PUT', '/flow-matrix', { json: { default_flow: 'adyen-live', rules: [] } });

    const payment = await live.ok('POST', '/payments/recurring', {
      json: {
        amount: 1499,
        currency_code: 'EUR',
        reference: 'subscription-live-1',
        source: { type: 'vaultline' },
        recurring_frequency: 30,
        recurring_expiry: dayFromNow(365),
      },
    });
    await submitCard(running.system.baseUrl, sessionOf(payment), ADYEN_TEST_CARDS.approved);
    initial = await live.until(payment.id, 'captured');

    expect(initial).toMatchObject({ livemode: true, flow: 'adyen-live', use_case: 'RECURRING', amount: { requested: 1499, authorized: 1499, captured: 1499 } });
    expect(adyen.payments.at(-1)!.body).toMatchObject({
      reference: payment.id,
      shopperInteraction: 'Ecommerce',
      recurringProcessingModel: 'Subscription',
      paymentMethod: { number: ADYEN_TEST_CARDS.approved },
    });
    expect(adyen.payments.at(-1)!.headers['x-api-key']).toBe(ADYEN.api_key);
  });

  it('when the test key reads, captures, charges two months ahead on the test clock, patches the live account and puts the flow matrix, then each is 404 or stays in test mode, and the stand-in receives nothing', async () => {
    const liveMatrix = await live.ok('GET', '/flow-matrix');
    const liveAccount = await live.ok('GET', '/processor-accounts/{processor_account_id}', { params: { processor_account_id: account } });
    const before = received();

    await test.refused(404, 'payment_not_found', 'GET', '/payments/{payment_id}', { params: { payment_id: initial.id } });
    await test.refused(404, 'payment_not_found', 'POST', '/payments/{payment_id}/capture', { params: { payment_id: initial.id }, json: {} });
    await test.refused(404, 'payment_not_found', 'POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1499, currency_code: 'EUR', reference: 'test clock raid' },
      headers: { 'X-Test-Now': timeFromNow(61) },
    });
    await test.refused(404, 'processor_account_not_found', 'PATCH', '/processor-accounts/{processor_account_id}', {
      params: { processor_account_id: account },
      json: { name: 'taken over', credentials: { ...ADYEN, api_key: 'AQE_attacker_key_0000' } },
    });
    const testMatrix = await test.ok<{ livemode: boolean; version: number; default_flow: string }>('PUT', '/flow-matrix', {
      json: { default_flow: 'simulator_manual_capture', rules: [] },
    });

    expect(testMatrix).toMatchObject({ livemode: false, version: 1, default_flow: 'simulator_manual_capture' });
    expect(await live.ok('GET', '/flow-matrix')).toEqual(liveMatrix);
    expect(await live.ok('GET', '/processor-accounts/{processor_account_id}', { params: { processor_account_id: account } })).toEqual(liveAccount);
    expect(await live.get(initial.id)).toEqual(initial);
    expect(received()).toEqual(before);
  });

  it("when the next month comes, then the live key's monthly charge is refused before its day and goes through on time, merchant-initiated at the stand-in with the live account's own key", async () => {
    await live.refused(422, 'recurring_frequency_not_respected', 'POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1499, currency_code: 'EUR', reference: 'subscription-live-2' },
    });

    // A month passes for the whole process (every service of the embedded profile reads this clock); the
    // live clock cannot be set through the API, and must not be.
    jest.useFakeTimers({ now: Date.now() + 31 * DAY_MS, advanceTimers: true, doNotFake: [...REAL_TIMERS] });
    const next = await live.ok('POST', '/payments/recurring/{payment_id}/subsequent', {
      params: { payment_id: initial.id },
      json: { amount: 1499, currency_code: 'EUR', reference: 'subscription-live-2' },
    });
    const captured = await live.until(next.id, 'captured');

    expect(captured).toMatchObject({
      livemode: true,
      use_case: 'SUBSEQUENT_RECURRING',
      initial_payment_id: initial.id,
      flow: 'adyen-live',
      amount: { captured: 1499 },
    });
    const sent = adyen.payments.find((p) => p.body.reference === next.id)!;
    expect(sent.body).toMatchObject({
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'Subscription',
      paymentMethod: { number: ADYEN_TEST_CARDS.approved },
    });
    expect(sent.body.paymentMethod).not.toHaveProperty('cvc');
    expect(sent.headers['x-api-key']).toBe(ADYEN.api_key);
  });
});

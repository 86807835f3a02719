import type { Browser } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { ADMIN_API_KEY, MerchantApi, profilesWithKafka, type RunningProfile } from './support/merchant-api';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  PAYMENT_CVC,
  PAYMENT_ENV,
  PaymentsApi,
  SIMULATOR_CARDS,
  dayFromNow,
  issueLiveKey,
  merchantWithWebhooks,
  launchChromium,
  anotherCardOffered,
  outcomeShown,
  payOnHostedPage,
  typeCardAndPay,
  sessionOf,
  startShop,
  submitCard,
  timeFromNow,
  type PaymentView,
} from './support/payment-scenario';
import { verifiedPaymentWebhooks, type WebhookReceiver } from './support/webhook-receiver';

const ADYEN = { api_key: 'AQE_e2e_adyen_key_5521', merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };

type Profile = RunningProfile;

/** The embedded profile (one process, SQLite bus), the local one (a process per service, Redis Streams) and the Kafka one; `env` adds to PAYMENT_ENV. */
const profiles: Array<[string, (env: Record<string, string>) => Promise<Profile>]> = profilesWithKafka('payments e2e').map(([name, start]) => [
  name,
  (env) => start({ ...PAYMENT_ENV, ...env }, 'vaultline-payments-'),
]);

/**
 * Issue 13 from the outside: a merchant's backend calling the payment API through the gateway, a
 * consumer paying on the hosted page (Chromium) or through POST /sessions/{id}/card, the merchant's
 * webhook endpoint verifying what it receives with the standardwebhooks library; and (issue 14) a payment
 * the flow matrix routes to an Adyen processor account, whose stand-in each profile's forwarder reaches.
 */
describe('payments through the gateway, from create to the outcome', () => {
  let browser: Browser;
  let shop: { url: string; stop(): Promise<void> };
  // Both profiles start together: the local one's processes load while the embedded one runs its tests.
  const started = new Map<string, Promise<Profile>>();
  /** Adyen's stand-in, reached by each profile's forwarder (allowed as an extra destination, over plain http). */
  let adyen: AdyenStandIn;

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: ADYEN.hmac_key });
    const processorEnv = { FORWARD_HTTPS_ONLY: 'false', FORWARD_EXTRA_DESTINATIONS: `${adyen.baseUrl}/v69/payments`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' };
    for (const [name, start] of profiles) started.set(name, start(processorEnv));
    // A profile that fails to start fails its own tests; the rejection is handled there.
    for (const profile of started.values()) profile.catch(() => undefined);
    [browser, shop] = await Promise.all([launchChromium(), startShop()]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await adyen?.stop();
  });

  describe.each(profiles.map(([name]) => name))('in the %s', (name) => {
    let profile: Profile;
    let api: PaymentsApi;
    let receiver: WebhookReceiver;
    let secret: string;

    beforeAll(async () => {
      profile = await started.get(name)!;
      ({ api, receiver, secret } = await merchantWithWebhooks(profile.baseUrl));
    }, 90_000);
    afterAll(async () => {
      await profile?.stop();
      await receiver?.stop();
    });

    /** The payloads of the webhooks about one payment, each verified with the endpoint's secret, in the order they arrived. */
    const webhooksOf = (secret: string, paymentId: string) => verifiedPaymentWebhooks(receiver, secret, paymentId);

    const initial = (path: string, body: Record<string, unknown>) =>
      api.ok('POST', path, { json: { amount: 1999, currency_code: 'EUR', source: { type: 'vaultline' }, ...body } });
    const subsequent = (kind: 'recurring' | 'unscheduled', initialId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      api.call('POST', `/payments/${kind}/{payment_id}/subsequent`, { params: { payment_id: initialId }, json: { currency_code: 'EUR', ...body }, headers });

    it("when a consumer pays a one-off payment in Chromium on the hosted page, then it is captured, the page shows it and returns to the shop, and the merchant's payment.processing and payment.captured webhooks verify", async () => {
      const created = await initial('/payments/one-off', { reference: 'order-1001', return_url: `${shop.url}/orders/1001` });
      expect(created).toMatchObject({ status: 'processing', use_case: 'ONE_OFF', amount: { requested: 1999 }, action_requirement: { type: 'use_sdk' } });

      const page = await payOnHostedPage(browser, profile.baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
      await outcomeShown(page, 'Payment successful');
      const captured = await api.until(created.id, 'captured');
      expect(captured).toMatchObject({
        amount: { requested: 1999, authorized: 1999, captured: 1999 },
        flow: 'simulator_auto_capture',
        source: {
          type: 'card',
          masked_account_number: '424242******4242',
          pan_type: 'FPAN',
          expiry_month: 12,
          expiry_year: 2034,
          cardholder_name: 'Ada Lovelace',
        },
      });
      // A paid order goes back to the shop on its own (3 s after the outcome): waited for, not raced by a click on the link.
      await page.waitForURL(`${shop.url}/orders/1001?session_id=${sessionOf(created)}&payment_id=${created.id}&payment_status=captured`);
      await page.close();

      const types = await waitFor(
        () => {
          const seen = webhooksOf(secret, created.id).map((payload) => payload.type);
          return seen.includes('payment.captured') && seen.includes('payment.processing') ? seen : null;
        },
        20_000,
        50,
      );
      expect(types).not.toContain('payment.authorized'); // automatic capture skips authorized
      const capturedHook = webhooksOf(secret, created.id).find((payload) => payload.type === 'payment.captured')!;
      expect(capturedHook.data).toMatchObject({
        payment_id: created.id,
        status: 'captured',
        amount: { requested: 1999, captured: 1999 },
        currency_code: 'EUR',
      });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual(['authorization:succeeded', 'capture:succeeded']);
      const newest = await api.ok<{ data: PaymentView[]; has_more: boolean }>('GET', '/payments', { query: 'limit=1' });
      expect(newest.data.map((payment) => payment.id)).toEqual([created.id]);
    }, 120_000);

    it('when the consumer enters a declined card (4000000000000002) in Chromium, then the page says so in words and takes another card, which is captured; each attempt a transaction, payment.attempt_failed then payment.captured', async () => {
      const created = await initial('/payments/one-off', { reference: 'order-1002' });
      const page = await payOnHostedPage(browser, profile.baseUrl, sessionOf(created), SIMULATOR_CARDS.declined);
      expect(await anotherCardOffered(page)).toEqual({
        title: 'The card •••• 0002 did not work',
        detail: 'Your card was declined. Try another card or contact your bank. You can enter another card below.',
      });
      expect(await api.get(created.id)).toMatchObject({
        status: 'processing',
        attempts: 1,
        last_failed_attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002' },
      });
      await typeCardAndPay(page, SIMULATOR_CARDS.approved);
      await outcomeShown(page, 'Payment successful');
      await page.close();
      expect(await api.until(created.id, 'captured')).toMatchObject({ attempts: 2, source: { masked_account_number: '424242******4242' } });
      expect((await api.transactions(created.id)).map((t) => [t.kind, t.status, t.failure_reason, t.attempt])).toEqual([
        ['authorization', 'failed', 'card_declined', 1],
        ['authorization', 'succeeded', null, 2],
        ['capture', 'succeeded', null, 2],
      ]);
      const types = await waitFor(
        () => {
          const seen = webhooksOf(secret, created.id).map((payload) => payload.type);
          return seen.includes('payment.captured') ? seen : null;
        },
        20_000,
        50,
      );
      expect(types).toEqual(expect.arrayContaining(['payment.processing', 'payment.attempt_failed', 'payment.captured']));
      expect(types).not.toContain('payment.failed');
      expect(webhooksOf(secret, created.id).find((payload) => payload.type === 'payment.attempt_failed')?.data).toMatchObject({
        status: 'processing',
        attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002' },
      });
    }, 120_000);

    it('when an initial recurring payment is captured, then a subsequent one the same day is refused recurring_frequency_not_respected, one a month later (X-Test-Now) is captured, and one after recurring_expiry is refused credentials_expired', async () => {
      const first = await initial('/payments/recurring', { reference: 'subscription-1', recurring_frequency: 30, recurring_expiry: dayFromNow(60) });
      expect(first).toMatchObject({ use_case: 'RECURRING', recurring_frequency: 30, recurring_expiry: dayFromNow(60), credential_id: expect.any(String) });
      await submitCard(profile.baseUrl, sessionOf(first), SIMULATOR_CARDS.approved);
      await api.until(first.id, 'captured');

      await api.refused(422, 'recurring_frequency_not_respected', 'POST', '/payments/recurring/{payment_id}/subsequent', {
        params: { payment_id: first.id },
        json: { amount: 1999, currency_code: 'EUR', reference: 'subscription-1-too-early' },
      });

      const nextMonth = timeFromNow(31);
      const answer = await subsequent('recurring', first.id, { amount: 1999, reference: 'subscription-1-month-2' }, { 'X-Test-Now': nextMonth });
      expect(answer.status).toBe(200);
      const second = answer.json<PaymentView>();
      expect(second).toMatchObject({
        status: 'processing',
        use_case: 'SUBSEQUENT_RECURRING',
        initial_payment_id: first.id,
        credential_id: first.credential_id,
        authentication_preference: 'NO_3RI',
        created_at: new Date(nextMonth).toISOString(),
        source: { masked_account_number: '424242******4242' },
      });
      expect(second.action_requirement).toBeUndefined();
      await api.until(second.id, 'captured');

      const dayAfter = await subsequent('recurring', first.id, { amount: 1999 }, { 'X-Test-Now': timeFromNow(32) });
      expect({ status: dayAfter.status, code: dayAfter.json().code }).toEqual({ status: 422, code: 'recurring_frequency_not_respected' });
      const afterExpiry = await subsequent('recurring', first.id, { amount: 1999 }, { 'X-Test-Now': timeFromNow(62) });
      expect({ status: afterExpiry.status, code: afterExpiry.json().code }).toEqual({ status: 422, code: 'credentials_expired' });
    });

    it('when an initial unscheduled payment is captured, then a subsequent unscheduled one is captured with the copied source, and one above the initial amount is refused amount_exceeds_initial', async () => {
      const first = await initial('/payments/unscheduled', { reference: 'top-up-1' });
      expect(first).toMatchObject({ use_case: 'UNSCHEDULED', credential_id: expect.any(String) });
      await submitCard(profile.baseUrl, sessionOf(first), SIMULATOR_CARDS.approved);
      await api.until(first.id, 'captured');

      const answer = await subsequent('unscheduled', first.id, { amount: 500, reference: 'top-up-2' });
      expect(answer.status).toBe(200);
      const second = answer.json<PaymentView>();
      expect(second).toMatchObject({
        use_case: 'SUBSEQUENT_UNSCHEDULED',
        initial_payment_id: first.id,
        credential_id: first.credential_id,
        source: { masked_account_number: '424242******4242' },
      });
      expect(await api.until(second.id, 'captured')).toMatchObject({ amount: { requested: 500, captured: 500 } });

      const tooMuch = await subsequent('unscheduled', first.id, { amount: 2000 });
      expect({ status: tooMuch.status, code: tooMuch.json().code }).toEqual({ status: 422, code: 'amount_exceeds_initial' });
    });

    it('when a one-off payment is named as the initial payment of a subsequent payment, then it is refused 422 use_case_mismatch', async () => {
      const oneOff = await initial('/payments/one-off', { reference: 'not-an-initial' });
      await submitCard(profile.baseUrl, sessionOf(oneOff), SIMULATOR_CARDS.approved);
      await api.until(oneOff.id, 'captured');
      for (const kind of ['recurring', 'unscheduled'] as const) {
        const refused = await subsequent(kind, oneOff.id, { amount: 100 });
        expect({ kind, status: refused.status, code: refused.json().code }).toEqual({ kind, status: 422, code: 'use_case_mismatch' });
      }
    });

    it('when the flow matrix sends manual- references to simulator_manual_capture, then such a payment stops at authorized and a partial capture completes to captured with amount.captured', async () => {
      const matrix = {
        default_flow: 'simulator_auto_capture',
        rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
      };
      const flows = await api.ok<{ data: Array<{ name: string; capture_mode: string }> }>('GET', '/flows');
      expect(flows.data).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'simulator_manual_capture', capture_mode: 'manual' })]));
      const stored = await api.ok<{ version: number }>('PUT', '/flow-matrix', { json: matrix });
      expect(await api.ok('GET', '/flow-matrix')).toMatchObject({ ...matrix, version: stored.version });
      expect(
        await api.ok('POST', '/flow-matrix/explain', { json: { use_case: 'ONE_OFF', amount: 5000, currency_code: 'EUR', reference: 'manual-order-7' } }),
      ).toMatchObject({
        flow: 'simulator_manual_capture',
        rule: 'manual-for-orders',
        matrix_version: stored.version,
        authorization: { strategy: 'ordered', processors: ['simulator'], reason: 'step_order' },
      });

      const created = await initial('/payments/one-off', { amount: 5000, reference: 'manual-order-7' });
      await submitCard(profile.baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
      expect(await api.until(created.id, 'authorized')).toMatchObject({ flow: 'simulator_manual_capture', amount: { requested: 5000, authorized: 5000 } });

      const capturing = await api.ok('POST', '/payments/{payment_id}/capture', {
        params: { payment_id: created.id },
        json: { reference: 'manual-order-7-shipment-1', amount: 3000, currency_code: 'EUR' },
      });
      expect(capturing).toMatchObject({
        status: 'capturing',
        amount: { requested: 5000, authorized: 5000 },
        flow: 'simulator_manual_capture',
        use_case: 'ONE_OFF',
      });
      expect(await api.until(created.id, 'captured')).toMatchObject({ amount: { requested: 5000, authorized: 5000, captured: 3000 } });
      await api.refused(409, 'already_captured', 'POST', '/payments/{payment_id}/capture', {
        params: { payment_id: created.id },
        json: { reference: 'again' },
      });
      await waitFor(() => webhooksOf(secret, created.id).some((payload) => payload.type === 'payment.authorized'), 10_000, 50);
    });

    it('when a merchant defines its own flow, then it is read back by name and listed after the built-in ones', async () => {
      const flow = {
        name: 'risk-then-manual',
        capture_mode: 'manual',
        steps: [
          { kind: 'risk', processor: 'simulator', on_failure: 'stop', fallback: [] },
          { kind: 'authorization', processor: 'simulator', on_failure: 'stop', fallback: [] },
          { kind: 'capture', processor: 'simulator', on_failure: 'stop', fallback: [] },
        ],
      };
      expect(await api.ok('POST', '/flows', { json: flow })).toMatchObject({ ...flow, built_in: false });
      expect(await api.ok('GET', '/flows/{flow_name}', { params: { flow_name: flow.name } })).toMatchObject(flow);
      const names = (await api.ok<{ data: Array<{ name: string }> }>('GET', '/flows')).data.map((f) => f.name);
      expect(names).toEqual(['simulator_auto_capture', 'simulator_manual_capture', flow.name]);
    });

    it('when a subsequent payment asks REQUIRE_3RI and the card fails 3RI (4000000000003220), then it fails authentication_failed with no authorization transaction; with TRY_3RI it goes on to authorization and is captured', async () => {
      const first = await initial('/payments/unscheduled', { reference: 'mit-3ri' });
      await submitCard(profile.baseUrl, sessionOf(first), SIMULATOR_CARDS.threeRiFails);
      await api.until(first.id, 'captured'); // the consumer was present: no 3RI step ran
      expect((await api.transactions(first.id)).map((t) => t.kind)).not.toContain('authentication_3ri');

      const answer = await subsequent('unscheduled', first.id, { amount: 1000, reference: 'mit-3ri-2', authentication_preference: 'REQUIRE_3RI' });
      expect(answer.json()).toMatchObject({ status: 'processing', authentication_preference: 'REQUIRE_3RI' });
      const failed = await api.until(answer.json<PaymentView>().id, 'failed');
      expect(failed.failure_reason).toBe('authentication_failed');
      const transactions = await api.transactions(failed.id);
      expect(transactions).toEqual([expect.objectContaining({ kind: 'authentication_3ri', status: 'failed' })]);
      expect(transactions.map((t) => t.kind)).not.toContain('authorization');

      const tried = await subsequent('unscheduled', first.id, { amount: 1000, reference: 'mit-3ri-3', authentication_preference: 'TRY_3RI' });
      const captured = await api.until(tried.json<PaymentView>().id, 'captured');
      expect((await api.transactions(captured.id)).map((t) => `${t.kind}:${t.status}`)).toEqual([
        'authentication_3ri:failed',
        'authorization:succeeded',
        'capture:succeeded',
      ]);
    });

    it('when a live key sends X-Test-Now, then the gateway refuses it with 422 test_clock_not_allowed; without it, a live payment on the simulator is refused simulator_not_allowed_in_live_mode', async () => {
      const live = new PaymentsApi(new MerchantApi(profile.baseUrl, await issueLiveKey(profile.baseUrl, ADMIN_API_KEY)));
      const initialId = '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b11';
      await live.refused(422, 'test_clock_not_allowed', 'POST', '/payments/recurring/{payment_id}/subsequent', {
        params: { payment_id: initialId },
        json: { amount: 100, currency_code: 'EUR' },
        headers: { 'X-Test-Now': timeFromNow(31) },
      });
      await live.refused(422, 'test_clock_not_allowed', 'GET', '/payments', { headers: { 'X-Test-Now': timeFromNow(31) } });
      await live.refused(422, 'simulator_not_allowed_in_live_mode', 'POST', '/payments/one-off', {
        json: { amount: 100, currency_code: 'EUR', source: { type: 'vaultline' } },
      });
    });

    // Last in the profile: it adds a flow (the listing above counts them) and changes the flow matrix.
    it("when the flow matrix routes adyen- references to a flow on an Adyen processor account, then the payment goes through the forwarder to Adyen's stand-in with the real card and is captured", async () => {
      const account = await api.ok<{ id: string }>('POST', '/processor-accounts', {
        json: { processor: 'adyen', name: 'Adyen EU', credentials: ADYEN, settings: { base_url: adyen.baseUrl } },
      });
      // Adyen notifies the account's endpoint (its CAPTURE confirms the automatic capture), through the gateway.
      adyen.webhookUrl = `${profile.baseUrl}/processor-notifications/adyen/${account.id}`;
      await api.ok('POST', '/flows', {
        json: {
          name: 'adyen-eu',
          capture_mode: 'automatic',
          steps: [
            { kind: 'authorization', processor: account.id },
            { kind: 'capture', processor: account.id },
          ],
        },
      });
      await api.ok('PUT', '/flow-matrix', {
        json: { default_flow: 'simulator_auto_capture', rules: [{ name: 'adyen-orders', when: { reference_prefix: 'adyen-' }, flow: 'adyen-eu' }] },
      });
      const created = await initial('/payments/one-off', { amount: 4200, reference: `adyen-order-${name.slice(0, 5)}` });
      await submitCard(profile.baseUrl, sessionOf(created), ADYEN_TEST_CARDS.approved);
      expect(await api.until(created.id, 'captured')).toMatchObject({
        flow: 'adyen-eu',
        amount: { requested: 4200, authorized: 4200, captured: 4200, capturable: 0 },
      });
      const sent = adyen.payments.find((p) => p.body.reference === created.id)!;
      expect(sent.body).toMatchObject({
        merchantAccount: ADYEN.merchant_account,
        shopperInteraction: 'Ecommerce',
        amount: { value: 4200, currency: 'EUR' },
        paymentMethod: { number: ADYEN_TEST_CARDS.approved, cvc: PAYMENT_CVC },
      });
      expect(sent.headers['idempotency-key']).toBe(`${created.id}:authorization`);
      expect((await api.transactions(created.id)).map((t) => [t.processor, t.kind, t.status])).toEqual([
        [account.id, 'authorization', 'succeeded'],
        [account.id, 'capture', 'succeeded'],
      ]);
    });
  });
});

import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  CHECKOUT_TEST_CARDS,
  startCheckoutStandIn,
  type CheckoutStandIn,
} from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';
import { MERCHANT_API_KEY, MerchantApi, PROFILES, type RunningProfile } from './support/merchant-api';
import {
  PAYMENT_ENV,
  PaymentsApi,
  anotherCardOffered,
  launchChromium,
  outcomeShown,
  payOnHostedPage,
  sessionOf,
  startShop,
  submitCard,
  type PaymentView,
} from './support/payment-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const ADYEN = { api_key: 'AQE_e2e_adyen_3ds_4410', merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_3ds_key', processing_channel_id: 'pc_e2e3ds', webhook_secret: 'whsec_e2e_3ds0123456789abcdefghijklmno' };

interface Started {
  profile: RunningProfile;
  adyen: AdyenStandIn;
  checkout: CheckoutStandIn;
}

/** Each profile with stand-ins of its own (the Checkout.com one sends its webhooks to that profile's gateway). */
async function startWithStandIns(name: string, start: (env: Record<string, string>, prefix: string) => Promise<RunningProfile>): Promise<Started> {
  const [adyen, checkout] = await Promise.all([
    startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: ADYEN.hmac_key }),
    startCheckoutStandIn({ secretKey: CHECKOUT.secret_key, processingChannelId: CHECKOUT.processing_channel_id, webhookSecret: CHECKOUT.webhook_secret }),
  ]);
  const env = {
    ...PAYMENT_ENV,
    FORWARD_HTTPS_ONLY: 'false',
    FORWARD_EXTRA_DESTINATIONS: `${adyen.baseUrl}/v69/payments,${checkout.baseUrl}/payments`,
    PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
  };
  const profile = await start(env, `vaultline-3ds-${name.startsWith('local') ? 'local' : 'embedded'}-`);
  return { profile, adyen, checkout };
}

/**
 * Issue 25 on the processors' stand-ins: a consumer pays on the hosted page in Chromium with a card whose
 * issuer asks for a challenge; the orchestrator builds Adyen's redirect-flow request (browserInfo,
 * returnUrl …) or Checkout.com's (3ds, success_url …), the forwarder fills in the card, the stand-in
 * answers RedirectShopper or 202 Pending, the hosted page takes the consumer to the stand-in's issuer
 * page, the consumer completes (or fails) the challenge and comes back to the hosted page, which resumes
 * the payment (Adyen /payments/details, Checkout.com GET /payments/{cko-session-id}) and shows the outcome.
 * The merchant's webhooks are verified with the standardwebhooks library.
 */
describe('3-D Secure challenges on the Adyen and Checkout.com stand-ins, through the gateway', () => {
  let browser: Browser;
  let shop: { url: string; stop(): Promise<void> };
  const started = new Map<string, Promise<Started>>();

  beforeAll(async () => {
    for (const [name, start] of PROFILES) started.set(name, startWithStandIns(name, start));
    for (const one of started.values()) one.catch(() => undefined);
    [browser, shop] = await Promise.all([launchChromium(), startShop()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  describe.each(PROFILES.map(([name]) => name))('in the %s', (name) => {
    let system: Started;
    let api: PaymentsApi;
    let receiver: WebhookReceiver;
    let secret: string;
    const accounts = { adyen: '', checkout: '' };

    beforeAll(async () => {
      [system, receiver] = await Promise.all([started.get(name)!, startWebhookReceiver()]);
      const merchant = new MerchantApi(system.profile.baseUrl, MERCHANT_API_KEY);
      api = new PaymentsApi(merchant);
      secret = (await registerWebhookEndpoint(merchant, receiver.url, [])).secret;
      for (const processor of ['adyen', 'checkout'] as const) {
        const baseUrl = system[processor].baseUrl;
        const answer = await merchant.call('POST', '/processor-accounts', {
          json: { processor, name: `${processor}-3ds`, credentials: processor === 'adyen' ? ADYEN : CHECKOUT, settings: { base_url: baseUrl } },
        });
        expect(answer.status).toBe(201);
        accounts[processor] = answer.json<{ id: string }>().id;
        await api.ok('POST', '/flows', {
          json: {
            name: `${processor}-3ds`,
            capture_mode: 'automatic',
            steps: [
              { kind: 'authorization', processor: accounts[processor], three_ds: 'if_required' },
              { kind: 'capture', processor: accounts[processor] },
            ],
          },
        });
      }
      // Checkout.com's webhooks (payment_approved, payment_captured, payment_authentication_failed) reach this profile's gateway,
      // and Adyen's notifications (its CAPTURE confirms an automatic capture).
      system.checkout.webhookUrl = `${system.profile.baseUrl}/processor-notifications/checkout/${accounts.checkout}`;
      system.adyen.webhookUrl = `${system.profile.baseUrl}/processor-notifications/adyen/${accounts.adyen}`;
    }, 180_000);
    afterAll(async () => {
      await system?.profile.stop();
      await Promise.all([system?.adyen.stop(), system?.checkout.stop(), receiver?.stop()]);
    });

    /** The payloads of the webhooks about one payment, each verified with the endpoint's secret. */
    function webhooksOf(paymentId: string): Array<{ type: string; data: Record<string, unknown> }> {
      return receiver.received
        .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: Record<string, unknown> })
        .filter((payload) => payload.data.payment_id === paymentId);
    }

    async function webhookTypes(paymentId: string, wanted: string[]): Promise<string[]> {
      return waitFor(
        () => {
          const seen = webhooksOf(paymentId).map((payload) => payload.type);
          return wanted.every((type) => seen.includes(type)) ? seen : null;
        },
        30_000,
        50,
      );
    }

    /** A one-off payment routed to the processor's 3-D Secure flow, paid in Chromium with `card`; the page is left on the issuer's challenge. */
    async function payToChallenge(
      processor: 'adyen' | 'checkout',
      card: string,
      reference: string,
    ): Promise<{ created: PaymentView; page: Page; visited: string[] }> {
      await api.ok('PUT', '/flow-matrix', { json: { default_flow: `${processor}-3ds`, rules: [] } });
      const created = await api.ok('POST', '/payments/one-off', {
        json: { amount: 1250, currency_code: 'EUR', reference, source: { type: 'vaultline' }, return_url: `${shop.url}/orders/${reference}` },
      });
      const page = await payOnHostedPage(browser, system.profile.baseUrl, sessionOf(created), card);
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(frame.url());
      });
      await page.getByRole('heading', { name: 'Verify your payment' }).waitFor({ timeout: 60_000 });
      return { created, page, visited };
    }

    /**
     * The hosted page's return route for the session, on the system's public address (the gateway's port;
     * the public base URL may name the loopback host `localhost` where the test reached 127.0.0.1).
     */
    function returnRoute(sessionId: string): RegExp {
      const port = new URL(system.profile.baseUrl).port;
      return new RegExp(`^http://(127\\.0\\.0\\.1|localhost):${port}/checkout/${sessionId}/return$`);
    }

    /** What every challenge must hold: the page came back to the hosted page (its return route answers with the page), nothing of the card in any address. */
    function expectReturnedToHostedPage(visited: string[], sessionId: string, card: string): void {
      const port = new URL(system.profile.baseUrl).port;
      const hostedPage = new RegExp(`^http://(127\\.0\\.0\\.1|localhost):${port}/checkout/${sessionId}(/return)?$`);
      expect(visited.map((url) => url.split('?')[0]!).filter((url) => hostedPage.test(url))).not.toEqual([]);
      expect(visited.filter((url) => url.includes(card) || url.includes(card.slice(-10)))).toEqual([]);
    }

    it('when the Adyen issuer asks for a challenge and the consumer completes it, then the payment is captured with the authentication, and the stand-in received the redirect-flow fields and the redirectResult', async () => {
      const { created, page, visited } = await payToChallenge('adyen', ADYEN_TEST_CARDS.threeDsChallenge, 'order-3ds-adyen');
      const pending = await api.get(created.id);
      expect(pending.status).toBe('processing');
      await page.getByRole('button', { name: 'Complete' }).click();
      await outcomeShown(page, 'Payment successful');
      const captured = await api.until(created.id, 'captured', 60_000);
      expect(captured).toMatchObject({
        flow: 'adyen-3ds',
        authentication: { type: '3ds', status: 'authenticated', version: '2.2.0', eci: '05', liability_shift: true },
      });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual([
        'authentication_3ds:succeeded',
        'authorization:succeeded',
        'capture:succeeded',
      ]);

      const sent = system.adyen.payments.find((p) => p.body.reference === created.id)!.body;
      const returnUrl = String(sent.returnUrl);
      expect(returnUrl).toMatch(returnRoute(sessionOf(created)));
      expect(sent).toMatchObject({
        channel: 'Web',
        origin: new URL(returnUrl).origin,
        shopperInteraction: 'Ecommerce',
        paymentMethod: { number: ADYEN_TEST_CARDS.threeDsChallenge },
        browserInfo: {
          userAgent: expect.stringContaining('Chrome'),
          acceptHeader: expect.stringContaining('text/html'),
          language: expect.any(String),
          colorDepth: expect.any(Number),
          screenHeight: expect.any(Number),
          screenWidth: expect.any(Number),
          timeZoneOffset: expect.any(Number),
          javaEnabled: false,
        },
      });
      expect(sent).not.toHaveProperty('authenticationData');
      const challenge = system.adyen.challenges.find((c) => c.returnUrl === returnUrl)!;
      expect(system.adyen.details.map((d) => d.body)).toContainEqual({ details: { redirectResult: challenge.redirectResult } });
      expectReturnedToHostedPage(visited, sessionOf(created), ADYEN_TEST_CARDS.threeDsChallenge);
      await page.close();

      const types = await webhookTypes(created.id, ['payment.action_required', 'payment.captured']);
      expect(types.indexOf('payment.action_required')).toBeLessThan(types.indexOf('payment.captured'));
      expect(webhooksOf(created.id).find((payload) => payload.type === 'payment.captured')!.data).toMatchObject({
        status: 'captured',
        authentication: { status: 'authenticated', eci: '05', liability_shift: true },
      });
    }, 180_000);

    it('when the Adyen issuer page must be reached by POST, then the hosted page posts action.data there and the completed challenge captures the payment', async () => {
      const { created, page } = await payToChallenge('adyen', ADYEN_TEST_CARDS.threeDsChallengePost, 'order-3ds-adyen-post');
      await page.getByRole('button', { name: 'Complete' }).click();
      await outcomeShown(page, 'Payment successful');
      expect(await api.until(created.id, 'captured', 60_000)).toMatchObject({ authentication: { status: 'authenticated' } });
      await page.close();
    }, 180_000);

    it('when the Checkout.com issuer asks for a challenge and the consumer completes it, then the payment is captured: 3ds sent, the return looked up by cko-session-id, the capture settled by the signed webhook', async () => {
      const { created, page, visited } = await payToChallenge('checkout', CHECKOUT_TEST_CARDS.threeDsChallenge, 'order-3ds-cko');
      // Checkout.com's webhooks are held until the consumer is back, so the return (not payment_approved) settles the authorization here.
      const webhookUrl = system.checkout.webhookUrl;
      system.checkout.webhookUrl = null;
      await page.getByRole('button', { name: 'Complete' }).click();
      const paymentId = await waitFor(() => system.checkout.payments.find((p) => p.body.reference === created.id)?.id, 10_000, 50);
      const sessionId = system.checkout.challenges.find((c) => c.paymentId === paymentId)!.sessionId;
      await waitFor(() => (system.checkout.lookups.includes(sessionId) ? true : null), 60_000, 50);
      system.checkout.webhookUrl = webhookUrl;
      for (const webhook of system.checkout.webhooks.filter((w) => (JSON.parse(w.rawBody) as { data: { id: string } }).data.id === paymentId)) {
        const delivered = await fetch(webhookUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cko-signature': webhook.signature },
          body: webhook.rawBody,
        });
        expect(delivered.status).toBe(200);
      }
      await outcomeShown(page, 'Payment successful');
      const captured = await api.until(created.id, 'captured', 60_000);
      expect(captured).toMatchObject({
        flow: 'checkout-3ds',
        authentication: { type: '3ds', status: 'authenticated', version: '2.2.0', eci: '05', liability_shift: true },
      });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual([
        'authentication_3ds:succeeded',
        'authorization:succeeded',
        'capture:succeeded',
      ]);

      const sent = system.checkout.payments.find((p) => p.body.reference === created.id)!;
      const returnUrl = String(sent.body.success_url);
      expect(returnUrl).toMatch(returnRoute(sessionOf(created)));
      expect(sent.body).toMatchObject({
        '3ds': { enabled: true, challenge_indicator: 'no_preference' },
        failure_url: returnUrl,
        capture: true,
        source: { number: CHECKOUT_TEST_CARDS.threeDsChallenge },
      });
      expectReturnedToHostedPage(visited, sessionOf(created), CHECKOUT_TEST_CARDS.threeDsChallenge);
      await page.close();
      await webhookTypes(created.id, ['payment.action_required', 'payment.captured']);
    }, 180_000);

    it('when the consumer fails the Checkout.com challenge, then the page says the card could not be authenticated and offers another; leaving for the shop fails the payment authentication_failed with no authorization transaction', async () => {
      const { created, page } = await payToChallenge('checkout', CHECKOUT_TEST_CARDS.threeDsChallenge, 'order-3ds-cko-fail');
      await page.getByRole('button', { name: 'Fail' }).click();
      expect(await anotherCardOffered(page)).toEqual({
        title: `The card •••• ${CHECKOUT_TEST_CARDS.threeDsChallenge.slice(-4)} did not work`,
        detail: 'Your card could not be authenticated. You can enter another card below.',
      });
      expect(await api.get(created.id)).toMatchObject({
        status: 'processing',
        last_failed_attempt: { failure_reason: 'authentication_failed', authentication: { status: 'failed', liability_shift: false } },
      });
      await page.getByRole('button', { name: 'Return to the shop' }).click();
      await page.waitForURL(`${shop.url}/orders/order-3ds-cko-fail?session_id=${sessionOf(created)}&payment_id=${created.id}&payment_status=failed`);
      await page.close();
      // The failed challenge belongs to the card that was tried (last_failed_attempt), not to the payment, which has no card left.
      const failed = await api.until(created.id, 'failed', 60_000);
      expect(failed).toMatchObject({
        failure_reason: 'authentication_failed',
        last_failed_attempt: { failure_reason: 'authentication_failed', authentication: { status: 'failed', liability_shift: false } },
      });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual(['authentication_3ds:failed']);
      const types = await webhookTypes(created.id, ['payment.action_required', 'payment.attempt_failed', 'payment.failed']);
      expect(types).not.toContain('payment.captured');
    }, 180_000);

    it('when the consumer completes the Checkout.com challenge but never comes back to the hosted page, then the signed payment_approved webhook settles the payment and it is captured', async () => {
      await api.ok('PUT', '/flow-matrix', { json: { default_flow: 'checkout-3ds', rules: [] } });
      const created = await api.ok('POST', '/payments/one-off', {
        json: { amount: 1250, currency_code: 'EUR', reference: 'order-3ds-cko-away', source: { type: 'vaultline' } },
      });
      await submitCard(system.profile.baseUrl, sessionOf(created), CHECKOUT_TEST_CARDS.threeDsChallenge);
      const sent = await waitFor(() => system.checkout.payments.find((p) => p.body.reference === created.id), 30_000, 50);
      const challenge = await waitFor(() => system.checkout.challenges.find((c) => c.paymentId === sent.id), 30_000, 50);
      await waitFor(async () => (webhooksOf(created.id).some((payload) => payload.type === 'payment.action_required') ? true : null), 30_000, 50);
      // The consumer's browser, on the issuer's page: completes, and is sent back, but goes nowhere.
      const parameters = await answerIssuerChallenge({ url: `${system.checkout.baseUrl}/3ds/${challenge.sessionId}`, method: 'GET', data: {} }, 'completed');
      expect(parameters['cko-session-id']).toBe(challenge.sessionId);
      expect(await api.until(created.id, 'captured', 60_000)).toMatchObject({ authentication: { status: 'authenticated' } });
      // Looked up by the payment's own id: the session id only travelled with the consumer.
      expect(system.checkout.lookups).toContain(sent.id);
    }, 120_000);
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { axeFindings } from './support/checkout-front';
import { PROFILES, type RunningProfile } from './support/merchant-api';
import {
  PAYMENT_ENV,
  PaymentsApi,
  SIMULATOR_CARDS,
  anotherCardOffered,
  launchChromium,
  merchantWithWebhooks,
  outcomeShown,
  payOnHostedPage,
  sessionOf,
  startShop,
  typeCardAndPay,
  type PaymentView,
} from './support/payment-scenario';
import { verifiedPaymentWebhooks, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Issue 25 from the outside, on the simulator: a consumer pays on the hosted page in Chromium, is taken to
 * the simulator's bank (its challenge page) and back, and the payment goes on; through the gateway of the
 * embedded and the local profile, the merchant's webhooks verified with standardwebhooks. Screenshots of
 * each step (embedded profile) go to test-output/three-d-secure/ and, copied by hand after a look, to
 * services/vault/docs/screenshots/.
 */
const OUTPUT = join(__dirname, '..', 'test-output', 'three-d-secure');
/** A consumer who never comes back is abandoned when the session expires: short sessions here. */
const SESSION_LIFETIME_MS = 40_000;
const profiles = PROFILES.map(
  ([name, start]) => [name, () => start({ ...PAYMENT_ENV, PAYMENT_SESSION_LIFETIME_MS: String(SESSION_LIFETIME_MS) }, 'vaultline-3ds-')] as const,
);

describe('3-D Secure on the hosted page, through the gateway', () => {
  let browser: Browser;
  let shop: { url: string; stop(): Promise<void> };
  const started = new Map<string, Promise<RunningProfile>>();

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    for (const [name, start] of profiles) started.set(name, start());
    for (const profile of started.values()) profile.catch(() => undefined);
    [browser, shop] = await Promise.all([launchChromium(), startShop()]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    // Every profile started, whether or not its tests ran (a filtered run).
    await Promise.all([...started.values()].map((profile) => profile.then((running) => running.stop()).catch(() => undefined)));
  }, 60_000);

  describe.each(profiles.map(([name]) => name))('in the %s', (name) => {
    let profile: RunningProfile;
    let api: PaymentsApi;
    let receiver: WebhookReceiver;
    let secret: string;
    const screenshots = name.startsWith('embedded');

    beforeAll(async () => {
      profile = await started.get(name)!;
      ({ api, receiver, secret } = await merchantWithWebhooks(profile.baseUrl));
    }, 120_000);
    afterAll(async () => {
      await receiver?.stop();
    });

    async function shot(page: Page, file: string): Promise<void> {
      if (screenshots) await page.screenshot({ path: join(OUTPUT, file) });
    }

    /** The webhooks about one payment, each verified with the endpoint's secret. */
    const webhooksOf = (paymentId: string) => verifiedPaymentWebhooks(receiver, secret, paymentId);
    const webhookTypesOf = (paymentId: string, last: string) =>
      waitFor(
        () => {
          const types = webhooksOf(paymentId).map((payload) => payload.type);
          return types.includes(last) ? types : null;
        },
        30_000,
        50,
      );

    /** Every address the consumer's browser asked for: none may hold the card number. */
    function recordAddresses(page: Page): string[] {
      const seen: string[] = [];
      page.on('request', (request) => seen.push(request.url()));
      return seen;
    }

    const create = (reference: string) =>
      api.ok('POST', '/payments/one-off', {
        json: {
          amount: 4250,
          currency_code: 'EUR',
          source: { type: 'vaultline' },
          reference,
          description: 'Order 2025 · walnut desk lamp',
          return_url: `${shop.url}/orders/${reference}`,
        },
      });

    /** Pays on the hosted page and waits for the simulator's bank page. */
    async function toTheBank(created: PaymentView, card: string, screenshotPrefix?: string): Promise<{ page: Page; addresses: string[] }> {
      const page = await browser.newPage({ viewport: { width: 420, height: 820 } });
      const addresses = recordAddresses(page);
      // For the screenshot of "Taking you to your bank…": the first way to the bank answers 204, which
      // leaves the page where it is; the test then takes the consumer on itself.
      if (screenshotPrefix) await page.route('**/authenticate', (route) => route.fulfill({ status: 204 }), { times: 1 });
      await page.goto(`${profile.baseUrl}/checkout/${sessionOf(created)}`);
      await page.getByRole('button', { name: /^Pay .*\d/ }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Card number').pressSequentially(card);
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('Security code').fill('538');
      await page.getByLabel('Name on card').fill('Ada Lovelace');
      if (screenshotPrefix) await shot(page, `${screenshotPrefix}-1-form.png`);
      await page.getByRole('button', { name: /Pay/ }).click();
      if (screenshotPrefix) {
        await outcomeShown(page, 'Taking you to your bank…');
        await shot(page, `${screenshotPrefix}-2-to-the-bank.png`);
        expect(await axeFindings(page)).toEqual([]);
        await page.goto(`${profile.baseUrl}/checkout/${sessionOf(created)}/authenticate`);
      }
      await page.getByRole('heading', { name: /Confirm the payment of 42.50 EUR/ }).waitFor({ timeout: 60_000 });
      expect(new URL(page.url()).pathname).toBe(`/checkout/${sessionOf(created)}/test-challenge`);
      if (screenshotPrefix) await shot(page, `${screenshotPrefix}-3-bank-challenge.png`);
      return { page, addresses };
    }

    const noCardIn = (addresses: string[], card: string) => {
      for (const address of addresses) {
        expect(address).not.toContain(card);
        expect(address).not.toContain(card.slice(0, 6) + card.slice(6, 12));
      }
    };

    it('when the bank challenges the card (4000000000003063) and the consumer completes it, then the payment is captured, authenticated with liability shift, the page shows it and returns to the shop, and payment.action_required and payment.captured webhooks verify', async () => {
      const created = await create('3ds-1');
      const { page, addresses } = await toTheBank(created, SIMULATOR_CARDS.challenge, screenshots ? '3ds' : undefined);
      const waiting = await api.get(created.id);
      expect(waiting).toMatchObject({ status: 'processing', next_action: { type: 'consumer_authentication' } });
      expect(await axeFindings(page)).toEqual([]);
      await page.getByRole('button', { name: 'Complete' }).click();
      await outcomeShown(page, 'Payment successful');
      expect(new URL(page.url()).pathname).toBe(`/checkout/${sessionOf(created)}`);
      expect(new URL(page.url()).search).toBe('');
      await shot(page, '3ds-4-succeeded.png');
      expect(await axeFindings(page)).toEqual([]);
      const captured = await api.until(created.id, 'captured');
      expect(captured.authentication).toEqual({ type: '3ds', version: '2.2.0', status: 'authenticated', eci: '05', liability_shift: true });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual([
        'authentication_3ds:succeeded',
        'authorization:succeeded',
        'capture:succeeded',
      ]);
      // The merchant's return_url keeps working after the trip to the bank: a paid order goes back to the shop on its
      // own (3 s after the outcome), waited for here, not raced by a click on the link (which the page may have left).
      await page.waitForURL(`${shop.url}/orders/3ds-1?session_id=${sessionOf(created)}&payment_id=${created.id}&payment_status=captured`);
      await page.close();
      noCardIn(addresses, SIMULATOR_CARDS.challenge);

      const types = await webhookTypesOf(created.id, 'payment.captured');
      expect(types).toEqual(expect.arrayContaining(['payment.processing', 'payment.action_required', 'payment.captured']));
      const hooks = webhooksOf(created.id);
      expect(hooks.find((hook) => hook.type === 'payment.action_required')?.data).toMatchObject({
        status: 'processing',
        action: { type: 'consumer_authentication' },
      });
      // The bank's address and form stay with the hosted page.
      expect(JSON.stringify(hooks)).not.toContain('test-challenge');
      expect(hooks.find((hook) => hook.type === 'payment.captured')?.data).toMatchObject({
        authentication: { status: 'authenticated', eci: '05', liability_shift: true },
      });
    }, 180_000);

    it('when the consumer fails the challenge, then the page says the card could not be authenticated and offers another card; leaving for the shop fails the payment with authentication_failed, no authorization transaction', async () => {
      const created = await create('3ds-2');
      const { page } = await toTheBank(created, SIMULATOR_CARDS.challenge);
      await page.getByRole('button', { name: 'Fail' }).click();
      expect(await anotherCardOffered(page)).toEqual({
        title: 'The card •••• 3063 did not work',
        detail: 'Your card could not be authenticated. You can enter another card below.',
      });
      await shot(page, '3ds-5-failed.png');
      expect(await axeFindings(page)).toEqual([]);
      expect(await api.get(created.id)).toMatchObject({
        status: 'processing',
        last_failed_attempt: { failure_reason: 'authentication_failed', authentication: { status: 'failed', liability_shift: false } },
      });
      await page.getByRole('button', { name: 'Return to the shop' }).click();
      await page.waitForURL(`${shop.url}/orders/3ds-2?session_id=${sessionOf(created)}&payment_id=${created.id}&payment_status=failed`);
      await page.close();
      expect(await api.until(created.id, 'failed')).toMatchObject({ failure_reason: 'authentication_failed' });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}`)).toEqual(['authentication_3ds:failed']);
      expect(await webhookTypesOf(created.id, 'payment.failed')).toEqual(
        expect.arrayContaining(['payment.action_required', 'payment.attempt_failed', 'payment.failed']),
      );
    }, 180_000);

    it('when the card is frictionless (4000000000003097), then the consumer never leaves the hosted page and the payment is captured, authenticated', async () => {
      const created = await create('3ds-3');
      const page = await payOnHostedPage(browser, profile.baseUrl, sessionOf(created), SIMULATOR_CARDS.frictionless);
      const visited: string[] = [];
      page.on('framenavigated', (frame) => visited.push(frame.url()));
      await outcomeShown(page, 'Payment successful');
      await page.close();
      expect(visited.filter((url) => url.includes('test-challenge'))).toEqual([]);
      expect(await api.until(created.id, 'captured')).toMatchObject({ authentication: { status: 'authenticated', eci: '05', liability_shift: true } });
      const types = await webhookTypesOf(created.id, 'payment.captured');
      expect(types).not.toContain('payment.action_required');
    }, 180_000);

    it('when the challenge of 4000008400001629 completes, then the authorization is declined, the page offers another card, and a second card is captured', async () => {
      const created = await create('3ds-4');
      const { page } = await toTheBank(created, SIMULATOR_CARDS.challengeThenDeclined);
      await page.getByRole('button', { name: 'Complete' }).click();
      expect((await anotherCardOffered(page)).detail).toBe('Your card was declined. Try another card or contact your bank. You can enter another card below.');
      expect(await api.get(created.id)).toMatchObject({
        status: 'processing',
        last_failed_attempt: { failure_reason: 'card_declined', authentication: { status: 'authenticated' } },
      });
      await typeCardAndPay(page, SIMULATOR_CARDS.approved);
      await outcomeShown(page, 'Payment successful');
      await page.close();
      expect(await api.until(created.id, 'captured')).toMatchObject({ attempts: 2, source: { masked_account_number: '424242******4242' } });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}:${t.attempt}`)).toEqual([
        'authentication_3ds:succeeded:1',
        'authorization:failed:1',
        'authorization:succeeded:2',
        'capture:succeeded:2',
      ]);
    }, 180_000);

    it('when the consumer leaves for the bank and never comes back, then the payment fails with authentication_abandoned once the session expires, and a late return changes nothing', async () => {
      const created = await create('3ds-5');
      const { page } = await toTheBank(created, SIMULATOR_CARDS.challenge);
      const challengeUrl = page.url();
      await page.close();
      const failed = await api.until(created.id, 'failed', SESSION_LIFETIME_MS + 30_000);
      expect(failed).toMatchObject({ failure_reason: 'authentication_abandoned' });
      expect(await webhookTypesOf(created.id, 'payment.failed')).toEqual(expect.arrayContaining(['payment.action_required', 'payment.failed']));
      // The bank's page is gone with the wait; the hosted page shows the outcome in words.
      const late = await browser.newPage({ viewport: { width: 420, height: 820 } });
      expect((await late.goto(challengeUrl))?.status()).toBe(404);
      await late.goto(`${profile.baseUrl}/checkout/${sessionOf(created)}/return?simulator_challenge=completed`);
      await outcomeShown(late, 'Payment failed');
      expect(await late.locator('#result-detail').textContent()).toBe('You did not confirm the payment with your bank in time; nothing was charged.');
      await shot(late, '3ds-6-abandoned.png');
      await late.close();
      expect((await api.get(created.id)).status).toBe('failed');
      expect((await api.transactions(created.id)).filter((t) => t.kind === 'authorization')).toEqual([]);
    }, 180_000);
  });
});

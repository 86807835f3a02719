import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeFindings } from './support/checkout-front';
import { startSystem, type RunningSystem } from './support/merchant-api';
import {
  PAYMENT_ENV,
  PaymentsApi,
  SIMULATOR_CARDS,
  anotherCardOffered,
  launchChromium,
  outcomeShown,
  sessionOf,
  startShop,
  typeCardAndPay,
} from './support/payment-scenario';

/**
 * Issue 36, the hosted page without dead ends, in Chromium against the embedded system: a declined card
 * is followed by another in the same session (phone and desktop), the session's attempts run out with the
 * wait shown, and a newcomer's page names the shop and says TEST MODE. Screenshots go to
 * test-output/checkout-page/ (copies in services/vault/docs/screenshots).
 */
const SHOTS = join(__dirname, '..', 'test-output', 'checkout-page');
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 860 } } as const;

describe('another card on the hosted page after a decline (embedded system, Chromium)', () => {
  let running: RunningSystem;
  let api: PaymentsApi;
  let browser: Browser;
  let shop: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [running, browser, shop] = await Promise.all([
      startSystem({ ...PAYMENT_ENV, VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: '3' }, 'vaultline-another-card-'),
      launchChromium(),
      startShop(),
    ]);
    api = new PaymentsApi(running.merchant);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await running?.stop();
  });

  const create = (reference: string) =>
    api.ok('POST', '/payments/one-off', {
      json: {
        amount: 2450,
        currency_code: 'EUR',
        source: { type: 'vaultline' },
        reference,
        description: '2 × Ethiopia Guji, 250 g',
        return_url: `${shop.url}/orders/${reference}`,
      },
    });

  async function open(sessionId: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage({ viewport });
    await page.goto(`${running.system.baseUrl}/checkout/${sessionId}`);
    return page;
  }

  describe.each(Object.entries(VIEWPORTS))('on a %s', (device, viewport) => {
    it('when the first card is declined, then the page names the card and the reason above an empty form, and a second card is paid in the same session; axe finds nothing on either', async () => {
      const created = await create(`another-card-${device}`);
      // The payment names its hosted page (PUBLIC_BASE_URL's origin): the consumer is sent there.
      const checkoutUrl = new URL(created.action_requirement!.checkout_url!);
      expect(checkoutUrl.pathname).toBe(`/checkout/${sessionOf(created)}`);
      const page = await browser.newPage({ viewport });
      await page.goto(checkoutUrl.toString());
      await typeCardAndPay(page, SIMULATOR_CARDS.declined);

      expect(await anotherCardOffered(page)).toEqual({
        title: 'The card •••• 0002 did not work',
        detail: 'Your card was declined. Try another card or contact your bank. You can enter another card below.',
      });
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      expect(await page.evaluate('document.activeElement.id')).toBe('number');
      expect(await page.getByRole('button', { name: 'Return to the shop' }).isVisible()).toBe(true);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: join(SHOTS, `${device}-another-card.png`), fullPage: true });
      expect(await axeFindings(page)).toEqual([]);

      await typeCardAndPay(page, SIMULATOR_CARDS.approved);
      await outcomeShown(page, 'Payment successful');
      expect(await page.locator('#result-detail').textContent()).toBe('Paid with Visa •••• 4242.');
      await page.screenshot({ path: join(SHOTS, `${device}-second-card-succeeded.png`), fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      await page.close();

      expect(await api.until(created.id, 'captured')).toMatchObject({ attempts: 2, last_failed_attempt: { number: 1, failure_reason: 'card_declined' } });
      expect((await api.transactions(created.id)).map((t) => `${t.kind}:${t.status}:${t.attempt}`)).toEqual([
        'authorization:failed:1',
        'authorization:succeeded:2',
        'capture:succeeded:2',
      ]);
    }, 120_000);
  });

  it('when a newcomer opens the page of a test payment, then it names the merchant (no branding set) and shows the TEST MODE badge', async () => {
    const created = await create('badge');
    const page = await open(sessionOf(created), VIEWPORTS.phone);
    await page.getByRole('button', { name: /^Pay .*24\.50/ }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#merchant-name').textContent()).toBe('Bootstrap merchant');
    expect(await page.locator('#test-mode').isVisible()).toBe(true);
    expect(await page.locator('#test-mode [data-text="testMode"]').innerText()).toBe('TEST MODE');
    expect(await page.locator('#test-mode').textContent()).toContain('Test mode: use a test card; no money moves.');
    await page.screenshot({ path: join(SHOTS, 'phone-test-mode.png'), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it("when the session's attempts run out, then the page says how long to wait and keeps the button off until then; the payment still waits", async () => {
    const created = await create('limit');
    const page = await open(sessionOf(created), VIEWPORTS.phone);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await typeCardAndPay(page, SIMULATOR_CARDS.declined);
      await anotherCardOffered(page);
    }
    await typeCardAndPay(page, SIMULATOR_CARDS.approved);
    await page.getByText(/^Too many attempts\. Try again in \d+ s\.$/).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: /^Pay / }).isDisabled()).toBe(true);
    // Waiting out the limit is the consumer's choice: the way back stays.
    expect(await page.getByRole('button', { name: 'Return to the shop' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'phone-too-many-attempts.png'), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
    await page.close();
    expect(await api.get(created.id)).toMatchObject({ status: 'processing', attempts: 3, last_failed_attempt: { number: 3 } });
  }, 120_000);

  it('when the consumer returns to the shop after a decline, then the payment fails at once with card_declined and the shop is told payment_status=failed', async () => {
    const created = await create('leave');
    const page = await open(sessionOf(created), VIEWPORTS.desktop);
    await typeCardAndPay(page, SIMULATOR_CARDS.insufficientFunds);
    expect((await anotherCardOffered(page)).detail).toBe('Your card has insufficient funds. You can enter another card below.');
    await page.getByRole('button', { name: 'Return to the shop' }).click();
    await page.waitForURL(`${shop.url}/orders/leave?session_id=${sessionOf(created)}&payment_id=${created.id}&payment_status=failed`);
    await page.close();
    expect(await api.until(created.id, 'failed')).toMatchObject({ failure_reason: 'insufficient_funds' });
  }, 60_000);
});

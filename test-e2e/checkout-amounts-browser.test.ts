import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startVault, type VaultHarness } from '../services/vault/test/vault-harness';
import { openSession } from '../services/vault/test/checkout-helpers';
import { startFront } from './support/checkout-front';
import { launchChromium } from './support/payment-scenario';

/*
 * Issue #34, finding 2: the hosted page divided the amount by Intl's fraction digits for the currency,
 * which Chromium's ICU rounds for cash use (HUF, IDR, PKR… 0 where ISO 4217 says 2; IQD 0 where it says 3):
 * HUF 150000 (HUF 1,500.00) showed "Pay HUF 150,000". The page now divides by the exponent the session
 * carries from the server's ISO 4217 table (currency_exponent).
 */

const SHOTS = join(__dirname, '..', 'test-output', 'checkout-page');

describe('the amount on the hosted page, in Chromium', () => {
  let vault: VaultHarness;
  let front: { url: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    vault = await startVault();
    front = await startFront(vault, () => '');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await vault?.stop();
  });

  async function headingFor(amount: number, currency: string, locale = 'en-US'): Promise<{ heading: string | null; button: string | null; icuDigits: number }> {
    const { sessionId } = await openSession(vault, { amount, currency });
    const context = await browser.newContext({ locale, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.getByLabel('Card number').waitFor();
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    const button = await page.locator('#pay').textContent();
    // What the old page divided by: this browser's own fraction digits for the currency.
    const icuDigits = (await page.evaluate(
      `new Intl.NumberFormat('en', { style: 'currency', currency: '${currency}' }).resolvedOptions().maximumFractionDigits`,
    )) as number;
    if (currency === 'HUF') await page.screenshot({ path: join(SHOTS, 'phone-huf-amount.png'), fullPage: true });
    await context.close();
    return { heading: heading?.replace(/\u00a0/g, ' ') ?? null, button: button?.replace(/\u00a0/g, ' ') ?? null, icuDigits };
  }

  it('when a payment of HUF 150000 opens the page, then it shows "Pay HUF 1,500.00" (the server\'s two decimals), though this browser\'s ICU gives HUF none', async () => {
    const shown = await headingFor(150000, 'HUF');
    expect(shown.heading).toBe('Pay HUF 1,500.00');
    expect(shown.button).toBe('Pay HUF 1,500.00');
    expect(shown.icuDigits).toBe(0);
  });

  it.each([
    ['AFN', 150000, 'Pay AFN 1,500.00'],
    ['IQD', 1500000, 'Pay IQD 1,500.000'],
    ['JPY', 1500, 'Pay ¥1,500'],
    ['KWD', 1234, 'Pay KWD 1.234'],
    ['EUR', 2450, 'Pay €24.50'],
  ])('when a payment in %s of %i opens the page, then it shows "%s"', async (currency, amount, expected) => {
    expect((await headingFor(amount, currency)).heading).toBe(expected);
  });

  it("when the page speaks German, then the amount keeps the server's decimals in German notation (HUF 1.500,00)", async () => {
    const { sessionId } = await openSession(vault, { amount: 150000, currency: 'HUF', locale: 'de' });
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.locator('#card-form').waitFor();
    await page.waitForFunction("document.getElementById('amount').textContent !== ''");
    expect((await page.getByRole('heading', { level: 1 }).textContent())?.replace(/\u00a0/g, ' ')).toBe('1.500,00 HUF bezahlen');
    await context.close();
  });
});

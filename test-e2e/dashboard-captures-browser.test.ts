import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { axeFindings } from './support/checkout-front';
import { createMerchantOfBothModes, startSystem, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, launchChromium, sessionOf, submitCard } from './support/payment-scenario';

const ROOT = join(__dirname, '..');
/** The screenshots land here; docs/dashboard/payment-capture-*.png are copies of a run. */
const OUTPUT = join(ROOT, 'test-output', 'dashboard');

/**
 * Issue 34, finding 6, on the dashboard (as pnpm build makes it, served by the gateway, in Chromium): a
 * merchant captures part of an authorized payment with "Final capture" unchecked, sees it partially
 * captured with what is still capturable, then captures the rest.
 */
describe('partial captures on the dashboard (headless Chromium, embedded profile)', () => {
  let running: RunningSystem;
  let shop: MerchantOfBothModes;
  let browser: Browser;
  let page: Page;
  let paymentId = '';

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'packages/dashboard'], { cwd: ROOT, stdio: 'ignore' });
    [running, browser] = await Promise.all([startSystem(PAYMENT_ENV, 'vaultline-dashboard-captures-'), launchChromium()]);
    shop = await createMerchantOfBothModes(running.system, 'Lovelace Books');
    const api = new PaymentsApi(shop.test);
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: 'simulator_manual_capture', rules: [] } });
    const created = await api.ok('POST', '/payments/one-off', {
      json: { amount: 9900, currency_code: 'EUR', reference: 'order-ships-in-parts', source: { type: 'vaultline' } },
    });
    await submitCard(running.system.baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
    paymentId = (await api.until(created.id, 'authorized')).id;
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  const facts = () => page.locator('dl.facts').innerText();
  const api = () => new PaymentsApi(shop.test);

  it('when the merchant captures 30.00 of 99.00 without "Final capture", then the payment is partially captured with 69.00 capturable, and the rest is captured next', async () => {
    await page.goto(`${running.system.baseUrl}/dashboard/`);
    await page.getByLabel('API key').fill(shop.test.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: 15_000 });
    await page.goto(`${running.system.baseUrl}/dashboard/#/payments/${paymentId}`);
    await page.getByRole('heading', { level: 1, name: /order-ships-in-parts/ }).waitFor({ timeout: 15_000 });
    expect(await facts()).toMatch(/Capturable\s+€99\.00/);

    await page.getByRole('button', { name: 'Capture' }).click();
    await page.getByLabel(/Amount \(EUR\), at most €99\.00/).fill('30.00');
    await page.getByLabel(/Final capture/).uncheck();
    expect(await page.getByRole('dialog').innerText()).toContain('€69.00 stays held');
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'payment-capture-dialog.png') });
    await page.getByRole('button', { name: 'Capture €30.00' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await waitFor(async () => ((await api().get(paymentId)).status === 'partially_captured' ? true : null), 15_000, 100);
    expect((await api().get(paymentId)).amount).toMatchObject({ captured: 3000, capturable: 6900 });

    await page.reload();
    await page.getByRole('heading', { level: 1, name: /order-ships-in-parts/ }).waitFor({ timeout: 15_000 });
    await waitFor(async () => ((await facts()).includes('partially captured') ? true : null), 15_000, 100);
    expect(await facts()).toMatch(/Captured\s+€30\.00/);
    expect(await facts()).toMatch(/Capturable\s+€69\.00/);
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(1);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'payment-partially-captured.png') });

    // The rest, as the last capture: "Final capture" is checked (and fixed) when the amount is all that is left.
    await page.getByRole('button', { name: 'Capture' }).click();
    expect(await page.getByLabel(/Final capture/).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Capture €69.00' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await waitFor(async () => ((await api().get(paymentId)).status === 'captured' ? true : null), 15_000, 100);
    expect((await api().get(paymentId)).amount).toMatchObject({ captured: 9900, capturable: 0 });
  }, 90_000);
});

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { axeFindings } from './support/checkout-front';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, launchChromium, sessionOf, submitCard } from './support/payment-scenario';

const ROOT = join(__dirname, '..');
const OUTPUT = join(ROOT, 'test-output', 'dashboard');

/**
 * Issue 35 in the dashboard (embedded profile, Chromium): a payment's page shows each authorization
 * attempt and why it went there (the routing's decision, the decline, what the flow did next), processors
 * by their account's name; the overview shows the authorization rate by processor that success-rate routing
 * compares. axe-core on both; screenshots in test-output/dashboard/ (copies in docs/dashboard/).
 */
describe('routing in the dashboard (embedded profile, Chromium)', () => {
  let running: RunningSystem;
  let browser: Browser;
  let page: Page;
  let api: PaymentsApi;
  let cascaded = '';
  let stolen = '';

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'packages/dashboard'], { cwd: ROOT, stdio: 'ignore' });
    [running, browser] = await Promise.all([startSystem(PAYMENT_ENV, 'vaultline-dashboard-routing-'), launchChromium()]);
    api = new PaymentsApi(running.merchant);
    const account = async (name: string, settings: Record<string, unknown>) =>
      (await api.ok<{ id: string }>('POST', '/processor-accounts', { json: { processor: 'simulator', name, settings } })).id;
    const first = await account('Simulator EU (approves 60 %)', { approval_rate: 0.6 });
    const second = await account('Simulator US (approves all)', { approval_rate: 1 });
    await api.ok('POST', '/flows', {
      json: {
        name: 'cascade',
        capture_mode: 'automatic',
        steps: [
          { kind: 'authorization', processors: [first, second], on_decline: [{ categories: ['do_not_honor'], action: 'next_processor' }] },
          { kind: 'capture', processor: first },
        ],
      },
    });
    // References starting us- go to the second account first: the rates count each card's first answer only.
    await api.ok('POST', '/flows', {
      json: {
        name: 'us-first',
        capture_mode: 'automatic',
        steps: [
          { kind: 'authorization', processor: second },
          { kind: 'capture', processor: second },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: 'cascade', rules: [{ name: 'us', when: { reference_prefix: 'us-' }, flow: 'us-first' }] } });
    const pay = async (reference: string, card: string) => {
      const created = await api.ok('POST', '/payments/one-off', { json: { amount: 4200, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
      await submitCard(running.system.baseUrl, sessionOf(created), card);
      return created.id;
    };
    // Enough payments that the first account declines some (its approval rate is 0.6): the first of those is the one shown.
    const ids = await Promise.all(Array.from({ length: 12 }, (_, n) => pay(`routed-${n}`, SIMULATOR_CARDS.approved)));
    const direct = await Promise.all(Array.from({ length: 3 }, (_, n) => pay(`us-${n}`, SIMULATOR_CARDS.approved)));
    await Promise.all([...ids, ...direct].map((id) => api.until(id, 'captured')));
    for (const id of ids) {
      const transactions = await api.transactions(id);
      if (transactions.filter((t) => t.kind === 'authorization').length === 2) {
        cascaded = id;
        break;
      }
    }
    stolen = await pay('stolen-1', '4000000000009979');
    await waitFor(async () => ((await api.get(stolen)).last_failed_attempt ? true : null), 15_000, 50);

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${running.system.baseUrl}/dashboard/`);
    await page.getByLabel('API key').fill(running.merchant.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: 15_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  async function settled(): Promise<void> {
    await waitFor(async () => Boolean(await page.evaluate(`!document.querySelector('.state-loading')`)), 15_000, 50);
  }

  it('when the overview is opened, then it shows the authorization rate by processor of the routing window, each account by its name; axe finds nothing', async () => {
    await page.getByRole('heading', { name: /Authorization rate by processor, the last 60 minutes/ }).waitFor({ timeout: 15_000 });
    await settled();
    const table = await page.getByRole('table', { name: 'Authorization rate by processor' }).innerText();
    expect(table).toContain('Simulator US (approves all)');
    expect(table).toContain('Simulator EU (approves 60 %)');
    expect(table).toMatch(/Recent rate \(decides\)\s+Window rate/);
    // Simulator US approves every card it is asked: both of its rates are 100 %.
    expect(table).toMatch(/Simulator US \(approves all\)\s+100\.0 %\s+100\.0 %/);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'overview-routing.png'), fullPage: true });
  }, 60_000);

  it("when a payment sent on to the next account is opened, then its page shows both attempts, why each went there and the first one's decline; axe finds nothing", async () => {
    expect(cascaded).not.toBe('');
    await page.goto(`${running.system.baseUrl}/dashboard/#/payments/${cascaded}`);
    await page.getByRole('heading', { name: 'Authorization attempts' }).waitFor({ timeout: 15_000 });
    await settled();
    const attempts = await page.getByRole('table', { name: 'Authorization attempts' }).innerText();
    expect(attempts).toMatch(/Simulator EU \(approves 60 %\)[\s\S]*declined[\s\S]*do not honor \(card_declined, retryable\)[\s\S]*next processor/);
    expect(attempts).toMatch(/Simulator US \(approves all\)[\s\S]*authorized/);
    // The timeline names the accounts too.
    expect(await page.locator('ol.timeline').innerText()).toMatch(/authorization at Simulator EU \(approves 60 %\) \(card 1\)/);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'payment-routing.png'), fullPage: true });
  }, 60_000);

  it('when a payment whose card was reported stolen is opened, then its attempt shows the hard decline and that it was never sent on', async () => {
    await page.goto(`${running.system.baseUrl}/dashboard/#/payments/${stolen}`);
    await page.getByRole('heading', { name: 'Authorization attempts' }).waitFor({ timeout: 15_000 });
    await settled();
    const attempts = await page.getByRole('table', { name: 'Authorization attempts' }).innerText();
    expect(attempts).toContain('lost or stolen (card_blocked, stolen_card at the processor, never retried)');
    expect(attempts).toContain('a hard decline is never retried');
    expect(await page.locator('dl.facts').innerText()).toMatch(/Decline\s+lost or stolen \(card_blocked/);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'payment-hard-decline.png'), fullPage: true });
  }, 60_000);
});

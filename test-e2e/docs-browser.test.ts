import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MemoryDocumentStore } from '@vaultline/store';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from '../services/gateway/test/support/gateway-harness';
import { axeFindings } from './support/checkout-front';
import { launchChromium } from './support/payment-scenario';

/** Screenshots land in test-output/; the ones in docs/screenshots/ are copies of a run. */
const OUTPUT = join(__dirname, '..', 'test-output');

/** A page opened with every console error (a refusal of the page's policy among them), failed request and request to another origin recorded. */
async function openRecorded(browser: Browser, url: string, viewport = { width: 1440, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const origin = new URL(url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('request', (request) => {
    const requested = request.url();
    if (!requested.startsWith(origin) && !requested.startsWith('blob:') && !requested.startsWith('data:'))
      problems.push(`request to another origin: ${requested}`);
  });
  await page.goto(url);
  return { page, problems };
}

describe('the documentation in a real browser (headless Chromium)', () => {
  let upstreams: Upstreams;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    upstreams = await startUpstreams();
    gateway = await startGateway(upstreams, new MemoryDocumentStore());
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await upstreams?.close();
  });

  const operation = (page: Page, operationId: string) => page.locator(`[id="operation/${operationId}"]`);
  /** Scrolls the element to just below the page's bar (the page's own code: no DOM types here). */
  const scrollTo = (page: Page, selector: string) =>
    page.evaluate(`window.scrollBy(0, document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().top - 64)`);
  const styleOf = (page: Page, selector: string, property: string) =>
    page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`);

  it('when /docs is opened, then Redoc renders the merchant API from this service alone, request and response schemas expanded with their examples, and the policy refuses nothing', async () => {
    const { page, problems } = await openRecorded(browser, `${gateway.url}/docs`);
    const oneOff = operation(page, 'createOneOffPayment');
    await oneOff.waitFor({ timeout: 30_000 });
    const text = await oneOff.innerText();
    // The request body's fields and the response's are listed, not a bare $ref; the example is shown.
    for (const field of ['amount', 'currency_code', 'return_url', 'allowed_origins', 'action_requirement', 'session_id'])
      expect({ field, shown: text.includes(field) }).toEqual({ field, shown: true });
    expect(text).toContain('order-1001');
    expect(text).not.toContain('#/components/');
    // Shared parameters appear by their names, not by component name.
    expect(await operation(page, 'listPayments').innerText()).toContain('starting_after');
    await page.screenshot({ path: join(OUTPUT, 'docs-reference.png') });
    await scrollTo(page, '[id="operation/createOneOffPayment"] h2');
    await page.screenshot({ path: join(OUTPUT, 'docs-reference-one-off-payment.png') });
    await scrollTo(page, '[id="operation/getPayment"] h2');
    await page.screenshot({ path: join(OUTPUT, 'docs-reference-get-payment.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('when /docs/admin is opened, then the admin API renders on its own', async () => {
    const { page, problems } = await openRecorded(browser, `${gateway.url}/docs/admin`);
    await operation(page, 'createMerchant').waitFor({ timeout: 30_000 });
    expect(await page.locator('[id^="operation/"]').count()).toBeGreaterThan(5);
    expect(await page.locator('[id="operation/createOneOffPayment"]').count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'docs-admin-reference.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("when the guides and the error reference are opened, then they render with their stylesheet, and a problem's type lands on its entry", async () => {
    const guides = await openRecorded(browser, `${gateway.url}/docs/guides`);
    await guides.page.locator('#test-cards').waitFor();
    expect(await styleOf(guides.page, '.docs-bar', 'position')).toBe('sticky');
    await guides.page.screenshot({ path: join(OUTPUT, 'docs-guides.png') });
    await scrollTo(guides.page, '#test-cards');
    await guides.page.screenshot({ path: join(OUTPUT, 'docs-guides-test-cards.png') });
    expect(guides.problems).toEqual([]);

    const errors = await openRecorded(browser, `${gateway.url}/docs/errors#idempotency_key_reused`);
    const entry = errors.page.locator('[id="idempotency_key_reused"]');
    await entry.waitFor();
    expect(await entry.isVisible()).toBe(true);
    expect(await styleOf(errors.page, '[id="idempotency_key_reused"]', 'backgroundColor')).toBe('rgb(255, 248, 219)');
    await errors.page.screenshot({ path: join(OUTPUT, 'docs-errors.png') });
    expect(errors.problems).toEqual([]);

    // Every test card and code sample has a Copy button (hidden without script); one copies the number without its spaces.
    await guides.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    const copy = guides.page.getByRole('button', { name: 'Copy 4000 0000 0000 3063' });
    await copy.click();
    expect(await guides.page.evaluate('navigator.clipboard.readText()')).toBe('4000000000003063');
    expect(await guides.page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await guides.page.locator('button.copy[hidden]').count()).toBe(0);
    expect(await guides.page.locator('button.copy').count()).toBeGreaterThan(30);
    expect(await axeFindings(guides.page)).toEqual([]);
    await scrollTo(guides.page, '#three-d-secure');
    await guides.page.screenshot({ path: join(OUTPUT, 'docs-guides-3ds.png') });

    const phone = await openRecorded(browser, `${gateway.url}/docs/guides`, { width: 360, height: 760 });
    await phone.page.locator('#quick-start').waitFor();
    await phone.page.screenshot({ path: join(OUTPUT, 'docs-guides-phone.png') });
    // Nothing wider than a 360 px phone: long tables and code scroll inside themselves.
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    for (const opened of [guides, errors, phone]) await opened.page.close();
  }, 60_000);
});

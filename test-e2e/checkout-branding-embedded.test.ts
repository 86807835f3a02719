import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';
import { axeFindings, drawLogo } from './support/checkout-front';
import { PAYMENT_CVC, PAYMENT_ENV, SIMULATOR_CARDS, launchChromium, outcomeShown, startShop } from './support/payment-scenario';

/**
 * A merchant brands its hosted page through the gateway with its API key; its consumer, in Chromium,
 * pays a payment with a description and locale de and meets that page: the whole system, embedded.
 */
describe('the branded hosted page through the gateway (embedded profile, Chromium)', () => {
  const apiKey = 'sk_test_checkout_branding_0123456789ab';
  let dataDir: string;
  let system: EmbeddedSystem;
  let browser: Browser;
  let shop: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-branding-'));
    [system, browser, shop] = await Promise.all([
      startEmbedded({ dataDir, port: 0, env: { ...PAYMENT_ENV, BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'silent' } }),
      launchChromium(),
      startShop(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await system?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const merchant = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${system.baseUrl}${path}`, {
      method,
      headers: { 'X-API-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('when the settings are asked for without a key, then the gateway refuses with 401; with the key they read the defaults', async () => {
    expect((await fetch(`${system.baseUrl}/settings/checkout`)).status).toBe(401);
    expect(await merchant('GET', '/settings/checkout')).toMatchObject({ status: 200, body: { object: 'checkout_settings', display_name: null } });
  });

  it('when the merchant sets its look and the consumer pays a payment with locale de, then the page shows the shop in German, loads nothing the gateway refuses, names a favicon served without a key, and axe finds nothing', async () => {
    const logo = await drawLogo(browser);
    const saved = await merchant('PATCH', '/settings/checkout', {
      display_name: 'Acme Coffee Roasters',
      brand_color: '#6d3b1f',
      logo_image: logo.toString('base64'),
    });
    expect(saved).toMatchObject({ status: 200, body: { button_text_color: '#ffffff', logo: { type: 'image', content_type: 'image/png' } } });
    const created = await merchant('POST', '/payments/one-off', {
      amount: 2450,
      currency_code: 'EUR',
      source: { type: 'vaultline' },
      return_url: `${shop.url}/orders/1001`,
      description: '2 × Ethiopia Guji, 250 g',
      locale: 'de',
    });
    expect(created.status).toBe(200);
    const sessionId = (created.body.action_requirement as { session_id: string }).session_id;

    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await page.goto(`${system.baseUrl}/checkout/${sessionId}`);
    await page.getByLabel('Kartennummer').waitFor();
    expect(await page.locator('#merchant-name').textContent()).toBe('Acme Coffee Roasters');
    expect(await page.evaluate("document.getElementById('merchant-logo').naturalWidth")).toBeGreaterThan(0);
    expect(await page.locator('#description').textContent()).toBe('2 × Ethiopia Guji, 250 g');
    // The page names its icon, served without a key: a browser asks for /favicon.ico (401 at the gateway) only
    // when a page names none. Headless Chromium asks for no icon at all, so the link itself is what is checked.
    const icon = await fetch(new URL(String(await page.locator('link[rel="icon"]').getAttribute('href')), system.baseUrl));
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await axeFindings(page)).toEqual([]);

    await page.locator('#number').pressSequentially(SIMULATOR_CARDS.approved);
    await page.locator('#expiry').fill('12/34');
    await page.locator('#cvc').fill(PAYMENT_CVC);
    await page.getByRole('button', { name: '24,50 € bezahlen' }).click();
    await outcomeShown(page, 'Zahlung erfolgreich');
    expect(await page.locator('#result-detail').textContent()).toBe('Bezahlt mit Visa •••• 4242.');
    expect(await page.getByRole('link', { name: 'Zurück zum Shop' }).getAttribute('href')).toContain(`${shop.url}/orders/1001?session_id=${sessionId}`);
    expect(refused).toEqual([]);
    await page.close();
  }, 90_000);
});

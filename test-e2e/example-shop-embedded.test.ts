import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';
import { Vaultline } from '@vaultline/node';
import { startShopCommand, type RunningShop } from './support/example-shop';
import { PAYMENT_CVC, PAYMENT_ENV, SIMULATOR_CARDS, anotherCardOffered, launchChromium } from './support/payment-scenario';

/**
 * The example shop (examples/shop, issue 28) as a new merchant runs it: its one documented command
 * (`pnpm --filter @vaultline/example-shop start` with VAULTLINE_API_KEY and VAULTLINE_BASE_URL) against the
 * embedded service, and a consumer in Chromium who orders, pays in the checkout.js iframe (or on the hosted
 * page), and gets a refund. The order moves only by the shop's verified webhooks.
 */
const root = join(__dirname, '..');
const SCREENSHOTS = join(root, 'test-output', 'example-shop');

describe('the example shop against the embedded service (Chromium)', () => {
  const apiKey = 'sk_test_example_shop_0123456789ab';
  let dataDir: string;
  let system: EmbeddedSystem;
  let browser: Browser;
  let shop: RunningShop;
  let vaultline: Vaultline;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-example-shop-'));
    [system, browser] = await Promise.all([
      // As the README starts it: no WEBHOOK_ALLOW_PRIVATE_URLS; the shop's localhost endpoint is accepted because
      // the service runs on loopback (a test key, HOST 127.0.0.1, PUBLIC_BASE_URL http://localhost:…).
      startEmbedded({ dataDir, port: 0, env: { ...PAYMENT_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false', BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'silent' } }),
      launchChromium(),
    ]);
    vaultline = new Vaultline(apiKey, { baseUrl: system.baseUrl });
    shop = await startShopCommand({ VAULTLINE_API_KEY: apiKey, VAULTLINE_BASE_URL: system.baseUrl, PORT: '0' });
  }, 90_000);
  afterAll(async () => {
    await shop?.stop();
    await browser?.close();
    await system?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const orderStatus = (page: Page) => page.locator('#order-status');
  async function statusBecomes(page: Page, text: string): Promise<void> {
    await page.locator('#order-status', { hasText: new RegExp(`^${text}$`) }).waitFor({ timeout: 30_000 });
  }

  async function order(quantity: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 900, height: 720 } });
    await page.goto(shop.url);
    await page.getByLabel('Quantity').selectOption(quantity);
    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.waitForURL(/\/orders\/ord_\w+\/checkout$/);
    return page;
  }
  async function webhookEndpoints(): Promise<Array<{ id: string; url: string }>> {
    const endpoints = [];
    for await (const endpoint of vaultline.list('/webhook-endpoints')) endpoints.push(endpoint);
    return endpoints;
  }
  /** The consumer types an approved card into the checkout.js iframe on the shop's page and pays. */
  async function payInFrame(page: Page, amount: string, options: { screenshot?: string } = {}): Promise<void> {
    const frame = page.frameLocator('iframe[title="Secure card payment"]');
    await frame.getByRole('button', { name: new RegExp(`^Pay .*${amount.replace('.', '\\.')}`) }).waitFor({ timeout: 30_000 });
    await frame.getByLabel('Card number').pressSequentially(SIMULATOR_CARDS.approved);
    await frame.getByLabel('Expiry (MM/YY)').fill('12/34');
    await frame.getByLabel('Security code').fill(PAYMENT_CVC);
    await frame.getByLabel('Name on card').fill('Ada Lovelace');
    if (options.screenshot) await page.screenshot({ path: join(SCREENSHOTS, options.screenshot), fullPage: true });
    await frame.getByRole('button', { name: /Pay/ }).click();
  }
  const paymentIdOn = async (page: Page) => String(await page.locator('dd code').first().textContent());

  it('when the shop starts, then it has registered its webhook endpoint through the SDK', async () => {
    expect((await webhookEndpoints()).map((endpoint) => endpoint.url)).toEqual([`${shop.url}/webhooks/vaultline`]);
  });

  it('when a consumer orders two bags, pays in the checkout.js iframe and the merchant refunds, then the order goes paid, then refunded, by verified webhooks', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 720 } });
    await page.goto(shop.url);
    await page.getByRole('heading', { name: 'Ethiopia Guji, 250 g' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'product.png') });
    await page.getByLabel('Quantity').selectOption('2');
    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.waitForURL(/\/orders\/ord_\w+\/checkout$/);

    await payInFrame(page, '25.00', { screenshot: 'checkout.png' });

    await page.waitForURL(/\/orders\/ord_\w+\?payment_status=captured$/, { timeout: 30_000 });
    await statusBecomes(page, 'Paid');
    await page.screenshot({ path: join(SCREENSHOTS, 'order-paid.png'), fullPage: true });
    const paymentId = await paymentIdOn(page);
    expect(await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } })).toMatchObject({
      status: 'captured',
      amount: { requested: 2500, captured: 2500 },
      reference: new URL(page.url()).pathname.split('/')[2],
    });

    await page.getByRole('button', { name: 'Refund' }).click();
    await statusBecomes(page, 'Refunded');
    await page.screenshot({ path: join(SCREENSHOTS, 'order-refunded.png'), fullPage: true });
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    const refunds = await vaultline.get('/payments/{payment_id}/refunds', { params: { path: { payment_id: paymentId } } });
    expect(refunds.data).toEqual([expect.objectContaining({ payment_id: paymentId, amount: 2500, status: 'succeeded' })]);
    await page.close();
  }, 90_000);

  it('when the consumer pays on the hosted page instead, the card is declined and they return to the shop instead of trying another, then the order shows the payment failed (the webhook marked it)', async () => {
    const page = await order('1');
    await page.getByRole('link', { name: 'Pay on the secure payment page instead' }).click();
    await page.waitForURL(new RegExp(`^${system.baseUrl}/checkout/`), { waitUntil: 'commit' });
    await page.getByRole('button', { name: /^Pay .*12\.50/ }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Card number').pressSequentially(SIMULATOR_CARDS.declined);
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill(PAYMENT_CVC);
    await page.getByRole('button', { name: /Pay/ }).click();
    await anotherCardOffered(page);
    await page.getByRole('button', { name: 'Return to the shop' }).click();
    await page.waitForURL(new RegExp(`^${shop.url}/orders/ord_\\w+\\?session_id=.*payment_status=failed`), { timeout: 30_000 });
    await statusBecomes(page, 'Payment failed');
    expect(await page.locator('dl').textContent()).toContain('card_declined');
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await page.close();
  }, 90_000);

  it('when the consumer cancels an order before paying, then its payment is canceled and the order offers no payment any more', async () => {
    const page = await order('3');
    await page.goto(page.url().replace(/\/checkout$/, ''));
    expect(await orderStatus(page).textContent()).toBe('Awaiting payment');
    const paymentId = await paymentIdOn(page);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await statusBecomes(page, 'Canceled');
    expect(await page.getByRole('link', { name: 'Pay now' }).count()).toBe(0);
    expect(await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } })).toMatchObject({ status: 'canceled' });
    await page.close();
  }, 90_000);

  it('when the merchant captures large orders by hand and cancels an authorized one, then the order goes authorized, then canceled, and nothing is captured', async () => {
    await vaultline.put('/flow-matrix', {
      body: {
        default_flow: 'simulator_auto_capture',
        rules: [{ name: 'manual-for-large-orders', when: { amount_gte: 3750 }, flow: 'simulator_manual_capture' }],
      },
    });
    const page = await order('3');
    await payInFrame(page, '37.50');
    await page.waitForURL(/\/orders\/ord_\w+\?payment_status=authorized$/, { timeout: 30_000 });
    await statusBecomes(page, 'Authorized \\(not charged yet\\)');
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await statusBecomes(page, 'Canceled');
    const paymentId = await paymentIdOn(page);
    expect(await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } })).toMatchObject({
      status: 'canceled',
      amount: { authorized: 3750 },
    });
    await page.close();
  }, 90_000);

  it('when a delivery is not signed with the endpoint secret, then the shop refuses it with 400 and changes no order', async () => {
    const forged = await fetch(`${shop.url}/webhooks/vaultline`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,Zm9yZ2Vk',
      },
      body: JSON.stringify({
        id: 'evt_forged',
        object: 'event',
        type: 'payment.captured',
        livemode: false,
        created_at: new Date().toISOString(),
        data: { payment_id: 'x' },
      }),
    });
    expect(forged.status).toBe(400);
  });

  it('when the deliveries are listed, then every one the shop received was answered 2xx', async () => {
    const [endpoint] = await webhookEndpoints();
    const deliveries = await waitFor(
      async () => {
        const listed = [];
        for await (const delivery of vaultline.list('/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpoint!.id } } }))
          listed.push(delivery);
        return listed.length > 0 && listed.every((delivery) => delivery.status === 'succeeded') ? listed : null;
      },
      15_000,
      200,
    );
    expect(deliveries.length).toBeGreaterThan(0);
  });
});

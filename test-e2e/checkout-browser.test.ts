import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { eventMessage } from '@vaultline/bus';
import { checkoutSessionOpenedV1 } from '@vaultline/contracts';
import { newCapabilityId, newId, waitFor } from '@vaultline/core';
import { startVault, MERCHANT, PUBLIC, type VaultHarness } from '../services/vault/test/vault-harness';
import { axeFindings, startFront } from './support/checkout-front';
import { launchChromium } from './support/payment-scenario';
import { openSession, publishPaymentStatus } from '../services/vault/test/checkout-helpers';

const OUTPUT = join(__dirname, '..', 'test-output');

describe('card entry in a real browser (headless Chromium)', () => {
  let vault: VaultHarness;
  let front: { url: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    vault = await startVault();
    front = await startFront(
      vault,
      (vaultOrigin, sessionId) => `<!doctype html><title>Shop</title><h1>Shop checkout</h1><div id="pay"></div>
        <script>window.heard = []; addEventListener('message', function (e) { window.heard.push({ origin: e.origin, data: e.data }); });</script>
        <script src="${vaultOrigin}/sdk/v1/checkout.js"></script>
        <script>Checkout.mount('#pay', { sessionId: '${sessionId}', onComplete: function (r) { document.title = 'done:' + r.status; } });</script>`,
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await vault?.stop();
  });

  /** Plays the orchestrator once the vault has tokenized the card. */
  async function captureWhenCompleted(sessionId: string, paymentId: string): Promise<void> {
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state === 'completed', 15_000, 50);
    await publishPaymentStatus(vault, paymentId, 'captured');
  }

  it('when the consumer types a card on the hosted page and pays, then the page shows the brand, the success and returns to the shop', async () => {
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: `${front.url}/shop/return` });
    const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.getByLabel('Card number').waitFor();
    await page.getByLabel('Card number').pressSequentially('4242424242424241');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Card number').focus();
    await page.getByLabel('Expiry (MM/YY)').focus();
    expect(await page.locator('#number-error').textContent()).toContain('not valid');
    await page.getByLabel('Card number').fill('');
    await page.getByLabel('Card number').pressSequentially('4242424242424242');
    expect(await page.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await page.locator('#brand').textContent()).toBe('Visa');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.screenshot({ path: join(OUTPUT, 'checkout-hosted-filled.png') });
    // The page as it looks for a shop that set nothing (default colour, no name, no logo).
    expect(await axeFindings(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await captureWhenCompleted(sessionId, paymentId);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(OUTPUT, 'checkout-hosted-result.png') });
    await page.waitForURL(/\/shop\/return\?session_id=.*payment_status=captured/, { timeout: 10_000 });
    await page.close();
  });

  async function payOnHostedPage(sessionId: string) {
    const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.getByLabel('Card number').pressSequentially('4000000000000002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /Pay/ }).click();
    return page;
  }

  it('when the payment is declined, then the page reads the reason in words and offers the way back with the failed status', async () => {
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: `${front.url}/shop/return?order=7` });
    const page = await payOnHostedPage(sessionId);
    await page.getByRole('heading', { name: 'Processing your payment…' }).waitFor({ timeout: 15_000 });
    await publishPaymentStatus(vault, paymentId, 'failed', 'card_declined');
    await page.getByRole('heading', { name: 'Payment failed' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#result-detail').textContent()).toBe('Your card was declined. Try another card or contact your bank.');
    const back = new URL(String(await page.getByRole('link', { name: 'Return to the shop' }).getAttribute('href')));
    expect(Object.fromEntries(back.searchParams)).toEqual({ order: '7', session_id: sessionId, payment_id: paymentId, payment_status: 'failed' });
    await page.close();
  });

  it('when a manual-capture payment is authorized, then the page says Payment authorized', async () => {
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: null });
    const page = await payOnHostedPage(sessionId);
    await publishPaymentStatus(vault, paymentId, 'authorized');
    await page.getByRole('heading', { name: 'Payment authorized' }).waitFor({ timeout: 15_000 });
    // The element itself, not a role: an <a> without href has no link role, so a role query finds nothing either way.
    expect(await page.locator('#return-link').isVisible()).toBe(false);
    expect(await page.locator('#returning').isVisible()).toBe(false);
    await page.close();
  });

  it('when the session has expired, then the page shows the failed outcome and offers the way back to the shop, leaving the choice to the consumer (no automatic redirect after a failure)', async () => {
    const { sessionId, paymentId } = await openSession(vault, { expiresInMs: -1_000, returnUrl: `${front.url}/shop/return` });
    const page = await browser.newPage();
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.getByRole('heading', { name: 'Payment failed' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#result-detail').textContent()).toBe('This payment session has expired; nothing was charged.');
    expect(await page.locator('#card-form').isHidden()).toBe(true);
    expect(await page.locator('#returning').isVisible()).toBe(false);
    await page.getByRole('link', { name: 'Return to the shop' }).click();
    await page.waitForURL(new RegExp(`/shop/return\\?session_id=${sessionId}&payment_id=${paymentId}&payment_status=failed`), { timeout: 10_000 });
    await page.close();
  });

  it('when the return URL is not a web address, then the page never offers or follows it', async () => {
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: 'javascript:document.title="pwned"' });
    const page = await payOnHostedPage(sessionId);
    await publishPaymentStatus(vault, paymentId, 'failed', 'insufficient_funds');
    await page.getByRole('heading', { name: 'Payment failed' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#result-detail').textContent()).toBe('Your card has insufficient funds.');
    expect(await page.locator('#return-link').isVisible()).toBe(false);
    expect(await page.title()).not.toBe('pwned');
    await page.close();
  });

  it('when the consumer arrives before the session reached the vault, then the page waits for it and shows the form', async () => {
    const sessionId = newCapabilityId();
    const page = await browser.newPage();
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const opened = eventMessage(checkoutSessionOpenedV1, {
      scope: { merchantId: MERCHANT.merchantId, mode: 'test' },
      data: {
        session_id: sessionId,
        payment_id: newId(),
        amount: 1999,
        currency: 'EUR',
        expires_at: new Date(vault.clock.now().getTime() + 60_000).toISOString(),
        return_url: null,
      },
    });
    await vault.runtime.bus.publish([opened]);
    await page.getByLabel('Card number').waitFor({ timeout: 10_000 });
    expect(await page.locator('#notice').textContent()).toContain('Enter your card details');
    await page.close();
  });

  it('when a merchant page mounts the SDK, then the form runs in an iframe of the vault origin and onComplete receives the result', async () => {
    // The shop is on "localhost", the vault front on 127.0.0.1: two origins, as in production.
    const shopOrigin = front.url.replace('127.0.0.1', 'localhost');
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: null, allowedOrigins: [shopOrigin] });
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto(`${shopOrigin}/shop/pay?session=${sessionId}&vault=${encodeURIComponent(front.url)}`);
    const frame = page.frameLocator('iframe[title="Secure card payment"]');
    await frame.getByLabel('Card number').pressSequentially('378282246310005');
    expect(await frame.locator('#brand').textContent()).toBe('American Express');
    await frame.getByLabel('Expiry (MM/YY)').fill('03/31');
    await frame.getByLabel('Security code').fill('1234');
    await frame.getByRole('button', { name: /Pay/ }).click();
    await captureWhenCompleted(sessionId, paymentId);
    await page.waitForFunction('document.title === "done:captured"', undefined, { timeout: 15_000 });
    expect(await page.locator('#number').count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'checkout-sdk-result.png') });
    const heard = (await page.evaluate('window.heard')) as { origin: string; data: { type: string; paymentId?: string; status?: string } }[];
    expect(heard.map((m) => m.origin)).toEqual(heard.map(() => front.url));
    expect(heard.find((m) => m.data.type === 'vaultline.checkout.complete')?.data).toMatchObject({ paymentId, status: 'captured' });
    await page.close();
  });

  it('when a page on an origin the session does not allow frames the checkout, then the frame is blocked and the page hears nothing, not even the completion', async () => {
    const shopOrigin = front.url.replace('127.0.0.1', 'localhost');
    // Allowed: the same host on another port, a different origin from the framing shop.
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: null, allowedOrigins: ['http://localhost:1'] });
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    const blocked = new Promise<string>((resolve) =>
      page.on('console', (line) => {
        if (/frame-ancestors|Refused to frame/i.test(line.text())) resolve(line.text());
      }),
    );
    await page.goto(`${shopOrigin}/shop/pay?session=${sessionId}&vault=${encodeURIComponent(front.url)}`);
    // The consumer's payment goes on elsewhere (the card submitted, the payment captured): a page that
    // was allowed would now be told; this one must not be.
    expect(
      (await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: { number: '4242424242424242', exp_month: '12', exp_year: '2034', cvc: '123' } }))
        .status,
    ).toBe(201);
    await publishPaymentStatus(vault, paymentId, 'captured');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.payment_status === 'captured', 10_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await page.evaluate('window.heard')).toEqual([]);
    expect(await Promise.race([blocked, new Promise((resolve) => setTimeout(() => resolve('no console report'), 5_000))])).toMatch(/frame-ancestors/);
    expect(await page.title()).toBe('Shop');
    const checkoutFrame = page.frames().find((f) => f !== page.mainFrame());
    expect(await checkoutFrame?.locator('#number').count()).toBe(0);
    await page.close();
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { MERCHANT, PUBLIC, startVault, type VaultHarness } from '../services/vault/test/vault-harness';
import { openSession, publishPaymentStatus } from '../services/vault/test/checkout-helpers';
import { axeFindings, drawLogo, startFront } from './support/checkout-front';
import { launchChromium } from './support/payment-scenario';

/** Where the screenshots go (services/vault/README.md shows copies of them from services/vault/docs/screenshots). */
const SHOTS = join(__dirname, '..', 'test-output', 'checkout-page');
const VIEWPORTS = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 860 } } as const;

describe('the hosted page as a consumer sees it (headless Chromium, axe-core)', () => {
  let vault: VaultHarness;
  let front: { url: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    vault = await startVault();
    front = await startFront(vault, () => '');
    browser = await launchChromium();
    const logo = await drawLogo(browser);
    const saved = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', {
      display_name: 'Acme Coffee Roasters',
      brand_color: '#6d3b1f',
      logo_image: logo.toString('base64'),
    });
    expect(saved.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await vault?.stop();
  });

  /** A page that records what a consumer's browser would complain about: failed requests and refused content. */
  async function openPage(sessionId: string, options: BrowserContextOptions = {}) {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'en-US', ...options });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
    page.on('console', (line) => {
      if (/Refused to|Content Security Policy/i.test(line.text())) failures.push(line.text());
    });
    // The shop's return page is not part of this test: leaving for it is stopped, so the outcome stays on screen.
    await page.route('**/shop/return**', (route) => route.abort());
    await page.goto(`${front.url}/checkout/${sessionId}`);
    return { page, failures, close: () => context.close() };
  }

  async function typeCard(page: Page, card: { number: string; expiry: string; cvc: string; name?: string }) {
    await page.locator('#number').waitFor();
    await page.locator('#number').pressSequentially(card.number);
    await page.locator('#expiry').fill(card.expiry);
    await page.locator('#cvc').fill(card.cvc);
    if (card.name) await page.locator('#name').fill(card.name);
  }

  const A_CARD = { number: '5555555555554444', expiry: '12/34', cvc: '123', name: 'Ada Lovelace' };
  const ORDER = { description: '2 × Ethiopia Guji, 250 g · order 1001', amount: 2450 };

  describe.each(Object.entries(VIEWPORTS))('on a %s', (device, viewport) => {
    it("when the consumer opens the page, then it shows the shop's name, logo and colour, the amount and the order line, and axe finds nothing", async () => {
      const { sessionId } = await openSession(vault, { ...ORDER, returnUrl: `${front.url}/shop/return` });
      const { page, failures, close } = await openPage(sessionId, { viewport });
      await page.getByLabel('Card number').waitFor();
      expect(await page.locator('#merchant-name').textContent()).toBe('Acme Coffee Roasters');
      expect(await page.evaluate("document.getElementById('merchant-logo').naturalWidth")).toBeGreaterThan(0);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pay €24.50');
      expect(await page.locator('#description').textContent()).toBe(ORDER.description);
      expect(await page.evaluate("getComputedStyle(document.getElementById('pay')).backgroundColor")).toBe('rgb(109, 59, 31)');
      await typeCard(page, A_CARD);
      expect(await page.locator('#brand-mark').getAttribute('data-brand')).toBe('MASTERCARD');
      await page.screenshot({ path: join(SHOTS, `${device}-form.png`), fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      expect(failures).toEqual([]);
      await close();
    });

    it('when the card number fails the Luhn check, the expiry is past and the security code is short, then each field says so and axe finds nothing', async () => {
      const { sessionId } = await openSession(vault, ORDER);
      const { page, failures, close } = await openPage(sessionId, { viewport });
      await typeCard(page, { number: '4242424242424241', expiry: '01/21', cvc: '12' });
      await page.getByRole('button', { name: 'Pay €24.50' }).click();
      expect(await page.locator('#number-error').textContent()).toBe('This card number is not valid.');
      expect(await page.locator('#expiry-error').textContent()).toBe('This card has expired.');
      expect(await page.locator('#cvc-error').textContent()).toBe('Enter the 3-digit security code.');
      expect(await page.locator('#number').getAttribute('aria-invalid')).toBe('true');
      expect(failures).toEqual([]);
      expect(await page.evaluate('document.activeElement.id')).toBe('number');
      await page.screenshot({ path: join(SHOTS, `${device}-field-errors.png`), fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      await close();
    });

    it.each([
      ['succeeded', 'captured', null, 'Payment successful', 'Paid with Mastercard •••• 4444.'],
      ['declined', 'failed', 'card_declined', 'Payment failed', 'Your card was declined. Try another card or contact your bank.'],
      ['error', 'failed', 'processor_error', 'Payment failed', 'The payment provider could not be reached; nothing was charged.'],
    ] as const)(
      'when the payment ends %s, then the page says so in words, offers the way back, and axe finds nothing',
      async (outcome, status, reason, title, detail) => {
        const { sessionId, paymentId } = await openSession(vault, { ...ORDER, returnUrl: `${front.url}/shop/return` });
        const { page, failures, close } = await openPage(sessionId, { viewport });
        await typeCard(page, A_CARD);
        await page.getByRole('button', { name: 'Pay €24.50' }).click();
        await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state === 'completed', 15_000, 50);
        await publishPaymentStatus(vault, paymentId, status, reason ?? undefined);
        await page.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
        expect(await page.locator('#result-detail').textContent()).toBe(detail);
        expect(await page.getByRole('link', { name: 'Return to the shop' }).isVisible()).toBe(true);
        await page.screenshot({ path: join(SHOTS, `${device}-${outcome}.png`), fullPage: true });
        expect(await axeFindings(page)).toEqual([]);
        expect(failures.filter((f) => !f.includes('/shop/return'))).toEqual([]);
        await close();
      },
    );

    it('when the session has expired, then the page says nothing was charged, and axe finds nothing', async () => {
      const { sessionId } = await openSession(vault, { ...ORDER, expiresInMs: -1_000, returnUrl: `${front.url}/shop/return` });
      const { page, close } = await openPage(sessionId, { viewport });
      await page.getByRole('heading', { name: 'Payment failed' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#result-detail').textContent()).toBe('This payment session has expired; nothing was charged.');
      await page.screenshot({ path: join(SHOTS, `${device}-expired.png`), fullPage: true });
      expect(await axeFindings(page)).toEqual([]);
      await close();
    });
  });

  it('when the shop sets locale de, then the page speaks German with German number formats, its field errors too, and axe finds nothing', async () => {
    const { sessionId } = await openSession(vault, { ...ORDER, locale: 'de' });
    const { page, close } = await openPage(sessionId);
    await page.getByLabel('Kartennummer').waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('24,50\u00a0€ bezahlen');
    await typeCard(page, { number: '4242424242424241', expiry: '13/30', cvc: '123' });
    await page.getByRole('button', { name: '24,50 € bezahlen' }).click();
    expect(await page.locator('#number-error').textContent()).toBe('Diese Kartennummer ist ungültig.');
    expect(await page.locator('#expiry-error').textContent()).toBe('Geben Sie das Ablaufdatum als MM/JJ ein.');
    await page.screenshot({ path: join(SHOTS, 'phone-form-de.png'), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
    await close();
  });

  it('when the session offers a card the shop stored, then the page shows it by brand, last four digits and expiry, asks for its security code, and axe finds nothing', async () => {
    const storedCard = {
      token_id: 'tok_stored',
      masked_account_number: '424242******4242',
      scheme: 'VISA',
      expiry_month: 3,
      expiry_year: 2031,
      cardholder_name: 'Ada Lovelace',
      security_code_required: true,
    };
    const { sessionId } = await openSession(vault, { ...ORDER, storedCard });
    const { page, close } = await openPage(sessionId);
    await page.getByLabel('CVC of the saved card').waitFor();
    expect(await page.locator('#stored-card').textContent()).toBe('Visa •••• 4242, expires 03/31, Ada Lovelace');
    expect(await page.locator('#stored-mark').getAttribute('data-brand')).toBe('VISA');
    expect(await page.locator('#card-form').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Pay €24.50' }).click();
    expect(await page.locator('#stored-cvc-error').textContent()).toBe('Enter the 3-digit security code.');
    await page.screenshot({ path: join(SHOTS, 'phone-stored-card.png'), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
    await page.getByLabel('CVC of the saved card').fill('737');
    expect(await page.locator('#stored-cvc-error').textContent()).toBe('');
    await close();
  });

  it("when the shop sets no locale, then the page follows the browser's language (French here)", async () => {
    const { sessionId } = await openSession(vault, ORDER);
    const { page, close } = await openPage(sessionId, { locale: 'fr-FR' });
    await page.getByLabel('Numéro de carte').waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payer 24,50\u00a0€');
    await close();
  });

  it.each([
    ['en', 'Card number', 'Secure card payment'],
    ['de', 'Kartennummer', 'Sichere Kartenzahlung'],
    ['fr', 'Numéro de carte', 'Paiement sécurisé par carte'],
    ['es', 'Número de tarjeta', 'Pago seguro con tarjeta'],
    ['nl', 'Kaartnummer', 'Veilige kaartbetaling'],
    ['it', 'Numero della carta', 'Pagamento sicuro con carta'],
  ])('when the locale is %s, then the form is labelled in it and fits a 360 px phone without scrolling sideways', async (locale, label, title) => {
    const { sessionId } = await openSession(vault, { ...ORDER, locale });
    const { page, close } = await openPage(sessionId);
    await page.getByLabel(label, { exact: true }).waitFor();
    expect(await page.title()).toBe(title);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await close();
  });

  it.each([
    ['4242424242424242', 'VISA', 'Visa'],
    ['5555555555554444', 'MASTERCARD', 'Mastercard'],
    ['378282246310005', 'AMEX', 'American Express'],
    ['6011111111111117', 'DISCOVER', 'Discover'],
    ['3566002020360505', 'JCB', 'JCB'],
    ['36227206271667', 'DINERS', 'Diners Club'],
    ['6200000000000005', 'UNIONPAY', 'UnionPay'],
    ['6759649826438453', 'MAESTRO', 'Maestro'],
  ])('when the consumer types %s, then the page shows the %s mark and names the brand for screen readers', async (number, scheme, label) => {
    const { sessionId } = await openSession(vault, ORDER);
    const { page, close } = await openPage(sessionId);
    await page.locator('#number').waitFor();
    await page.locator('#number').pressSequentially(number.slice(0, 8));
    expect(await page.locator('#brand-mark').getAttribute('data-brand')).toBe(scheme);
    expect(await page.locator('#brand-mark svg').count()).toBe(1);
    expect(await page.locator('#brand').textContent()).toBe(label);
    await close();
  });

  it('when the consumer uses only the keyboard, then Tab reaches every field and the button in order and Enter pays', async () => {
    const { sessionId } = await openSession(vault, ORDER);
    const { page, close } = await openPage(sessionId);
    await page.getByLabel('Card number').waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('number');
    await page.keyboard.type('4242424242424242');
    const order: string[] = [];
    for (const text of ['12/34', '123', 'Ada Lovelace', '']) {
      await page.keyboard.press('Tab');
      order.push(String(await page.evaluate('document.activeElement.id')));
      if (text) await page.keyboard.type(text);
    }
    expect(order).toEqual(['expiry', 'cvc', 'name', 'pay']);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Processing your payment…' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate('document.activeElement.id')).toBe('result-title');
    await close();
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@vaultline/core';
import { axeFindings, drawLogo } from './support/checkout-front';
import { registerWebhookEndpoint } from './support/import-scenario';
import { ADMIN_API_KEY, createMerchantOfBothModes, startSystem, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, launchChromium, leaveAfterFailedCard, sessionOf, submitCard } from './support/payment-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const ROOT = join(__dirname, '..');
/** Screenshots of every page land here; the ones in docs/dashboard/ are copies of a run. */
const OUTPUT = join(ROOT, 'test-output', 'dashboard');
const REFERENCE = 'order-dash-1001';
const VIEWPORT = { width: 1280, height: 900 };
/** A phone: every page changed in issue 36 is photographed and checked at this width too. */
const PHONE = { width: 390, height: 844 };

/**
 * Issue 29 from the outside, embedded profile: the dashboard as pnpm build makes it, served by the gateway
 * at /dashboard under its strict policy, driven in Chromium: a merchant signs in with a key, finds a
 * payment by reference and refunds it, edits the flow matrix with the live explain preview, replays a
 * webhook delivery, switches to live and sees none of the test data; an operator creates a merchant.
 * Every page is checked by axe-core (no violation), refused by the policy in nothing, and photographed.
 */
describe('the dashboard in a real browser (headless Chromium, embedded profile)', () => {
  let running: RunningSystem;
  let shop: MerchantOfBothModes;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let base: string;
  let dashboardKey = '';
  const seeded = { refundable: '', declined: '', authorized: '', endpoint: '', capturable: '', secondCard: '' };

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'packages/dashboard'], { cwd: ROOT, stdio: 'ignore' });
    [running, receiver, browser] = await Promise.all([startSystem(PAYMENT_ENV, 'vaultline-dashboard-'), startWebhookReceiver(), launchChromium()]);
    base = running.system.baseUrl;
    shop = await createMerchantOfBothModes(running.system, 'Lovelace Books');
    await seedTestData();
    context = await browser.newContext({ viewport: VIEWPORT });
    page = await context.newPage();
    problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) problems.push(`request to another origin: ${request.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await receiver?.stop();
  });

  /** A test-mode world for the shop: paid, declined and authorized payments, a customer, a token, a webhook endpoint that heard them. */
  async function seedTestData() {
    const api = new PaymentsApi(shop.test);
    seeded.endpoint = (await registerWebhookEndpoint(shop.test, receiver.url, [])).id;
    await api.ok('PUT', '/flow-matrix', {
      json: {
        default_flow: 'simulator_auto_capture',
        rules: [{ name: 'manual-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
      },
    });
    const paid = async (reference: string, card: string, amount = 4200) => {
      const payment = await api.ok('POST', '/payments/one-off', { json: { amount, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
      await submitCard(base, sessionOf(payment), card);
      return payment.id;
    };
    /** A declined card, then the consumer returns to the shop: the payment fails with the card's reason. */
    const declinedThenLeft = async (reference: string, card: string, amount: number) => {
      const id = await paid(reference, card, amount);
      const payment = await api.get(id);
      await leaveAfterFailedCard(base, sessionOf(payment));
      return id;
    };
    /** A declined card, then a 3-D Secure frictionless one in the same session: captured, authenticated, two cards tried. */
    const secondCardPaid = async () => {
      const id = await paid('order-dash-1007', SIMULATOR_CARDS.declined, 3300);
      const payment = await api.get(id);
      await waitFor(
        async () => ((await (await fetch(`${base}/sessions/${sessionOf(payment)}/status`)).json()) as { state: string }).state === 'open',
        15_000,
        25,
      );
      await submitCard(base, sessionOf(payment), SIMULATOR_CARDS.frictionless);
      return id;
    };
    const [refundable, declined, authorized, , , capturable, secondCard] = await Promise.all([
      paid(REFERENCE, SIMULATOR_CARDS.approved),
      declinedThenLeft('order-dash-1002', SIMULATOR_CARDS.declined, 1500),
      paid('manual-dash-1003', SIMULATOR_CARDS.approved, 9900),
      declinedThenLeft('order-dash-1004', SIMULATOR_CARDS.insufficientFunds, 2500),
      paid('order-dash-1005', SIMULATOR_CARDS.approved, 1250),
      paid('manual-dash-1006', SIMULATOR_CARDS.approved, 5600),
      secondCardPaid(),
    ]);
    Object.assign(seeded, { refundable, declined, authorized, capturable, secondCard });
    await Promise.all([
      api.until(refundable, 'captured'),
      api.until(declined, 'failed'),
      api.until(authorized, 'authorized'),
      api.until(capturable, 'authorized'),
      api.until(secondCard, 'captured'),
    ]);
    const customer = await api.ok<{ id: string }>('POST', '/customers', { json: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    // A first payment on a mandate stores the card as the customer's payment method.
    const onMandate = await api.ok('POST', '/payments', {
      json: {
        amount: 1999,
        currency_code: 'EUR',
        confirm: true,
        customer_id: customer.id,
        store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'ada-books-club' },
      },
    });
    await submitCard(base, sessionOf(onMandate), SIMULATOR_CARDS.approved);
    await api.until(onMandate.id, 'captured');
    await shop.test.createToken({ number: '5555555555554444', exp_month: 7, exp_year: 2031, name: 'Ada Lovelace' }, 'customer-ada');
    await waitFor(() => receiver.received.length >= 3, 15_000, 50);
  }

  /** Opens a dashboard page and waits for its heading (and for no "Loading" left). */
  async function visit(path: string, heading: string | RegExp): Promise<void> {
    await page.goto(`${base}/dashboard/#${path}`);
    await settled(heading);
  }

  async function settled(heading: string | RegExp): Promise<void> {
    await page
      .getByRole('heading', { level: 1, name: heading })
      .waitFor({ timeout: 15_000 })
      .catch(async (error: Error) => {
        // Say what the page showed instead (an error state, another page) rather than only what was missing.
        const shown = (
          await page
            .locator('body')
            .innerText()
            .catch(() => '(not readable)')
        )
          .replace(/\s+/g, ' ')
          .slice(0, 400);
        throw new Error(`${error.message}\nThe page showed: ${shown}`);
      });
    await until(`!document.querySelector('.state-loading')`);
  }

  /**
   * Waits until an expression holds in the page. (Evaluated through the DevTools protocol: the page's
   * policy allows no eval, so Playwright's waitForFunction cannot run there.)
   */
  async function until(expression: string, timeoutMs = 15_000): Promise<void> {
    await waitFor(async () => Boolean(await page.evaluate(expression)), timeoutMs, 50);
  }

  /** axe-core finds nothing, the policy refused nothing, and the page is photographed for docs/dashboard/. */
  async function checked(name: string, fullPage = false): Promise<void> {
    expect({ page: name, findings: await axeFindings(page) }).toEqual({ page: name, findings: [] });
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage });
  }

  const text = () => page.locator('main').innerText();

  it('when the dashboard is opened without a session, then the sign-in asks for a key, refuses a wrong one, and the page is served under the strict policy', async () => {
    const answer = await fetch(`${base}/dashboard/`);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('API key').waitFor();
    await checked('sign-in');

    await page.getByLabel('API key').fill('sk_test_not_a_key_of_anyone_000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/key/i);
    problems.length = 0;
  }, 30_000);

  it('when the merchant signs in with a test key, then the overview charts the payments, and the key is in no storage and no address', async () => {
    await page.getByLabel('API key').fill(shop.test.apiKey);
    await page.keyboard.press('Enter');
    await settled('Overview');
    expect(await page.locator('canvas[role="img"]').count()).toBe(6);
    expect(await page.getByRole('img', { name: /Decline reasons/ }).getAttribute('aria-label')).toMatch(/declined|insufficient/i);
    const stored = (await page.evaluate('JSON.stringify([localStorage, sessionStorage, document.cookie, location.href])')) as string;
    expect(stored).not.toContain(shop.test.apiKey);
    await checked('overview', true);
  }, 30_000);

  it('when a payment is searched by its reference and refunded through the confirmation, then its page shows the refund and its timeline', async () => {
    await visit('/payments', 'Payments');
    await checked('payments');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const oldest = (await new PaymentsApi(shop.test).ok<{ data: Array<{ reference: string }> }>('GET', '/payments', { query: 'order=asc&limit=1' })).data[0]
      ?.reference;
    await until(`(document.querySelector('main tbody tr a') || {}).textContent === ${JSON.stringify(oldest)}`);
    await visit('/payments', 'Payments');
    await page.getByLabel('Reference').fill(REFERENCE);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(`document.querySelectorAll('main tbody tr').length === 1`);
    await page.getByRole('link', { name: REFERENCE }).click();
    await settled(`Payment ${REFERENCE}`);
    await page.locator('.timeline').waitFor();
    expect(await page.locator('.timeline').innerText()).toMatch(/authorization at simulator/);
    expect(await page.locator('.timeline').innerText()).toMatch(/payment\.captured/);
    expect(await page.locator('.timeline').innerText()).toMatch(/Webhook payment\.captured/);
    await checked('payment');

    // By keyboard: the dialog opens from the focused button, traps focus, and Escape closes it.
    await page.getByRole('button', { name: 'Refund' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Refund this payment?' }).waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.closest("dialog") !== null')).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByLabel(/Amount \(EUR\)/).fill('10.00');
    expect({ dialog: 'refund', findings: await axeFindings(page) }).toEqual({ dialog: 'refund', findings: [] });
    await page.screenshot({ path: join(OUTPUT, 'payment-refund-dialog.png') });
    await page.getByRole('button', { name: 'Refund €10.00' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // The page follows the refund as it settles, with no reload: pending, then refunded, the badge partially refunded.
    await until(`document.querySelector('.facts').innerText.includes('partially refunded')`);
    expect(await page.locator('.facts').innerText()).toMatch(/Refunded\s+€10\.00\n/);
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(1);
    await page.locator('.timeline').getByRole('link', { name: 'refund.succeeded' }).first().waitFor();
    await checked('payment-partially-refunded');
    expect((await new PaymentsApi(shop.test).get(seeded.refundable)).amount.refunded).toBe(1000);

    await visit('/refunds', 'Refunds');
    expect(await text()).toContain('€10.00');
    expect(await text()).toContain(seeded.refundable);
    await checked('refunds');
  }, 60_000);

  it('when the flow matrix is edited, then the draft is validated as it is typed and explained for a sample payment before it is saved', async () => {
    await visit('/flow-matrix', 'Flow matrix');
    await page
      .locator('#explain-result')
      .getByText('manual-orders')
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    await page.getByLabel('Reference').fill('manual-4711');
    await page.locator('#explain-result').getByText('manual-orders').waitFor();
    expect(await page.locator('#explain-result').innerText()).toContain('simulator_manual_capture');

    const editor = page.getByLabel('The matrix (JSON)');
    await editor.fill(
      '{ "default_flow": "simulator_auto_capture", "rules": [ { "name": "big", "when": { "colour": ["red"] }, "flow": "simulator_manual_capture" } ] }',
    );
    await page
      .locator('#matrix-check.form-error')
      .getByText(/colour|condition/i)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Save the matrix' }).isDisabled()).toBe(true);
    await editor.fill('{ "default_flow": "simulator_auto_capture", "rules": [');
    await page
      .locator('#matrix-check')
      .getByText(/Not JSON/)
      .waitFor();

    const draft = {
      default_flow: 'simulator_auto_capture',
      rules: [{ name: 'big-eur', when: { currency_code: ['EUR'], amount_gte: 10000 }, flow: 'simulator_manual_capture' }],
    };
    await editor.fill(JSON.stringify(draft, null, 2));
    await page.getByLabel('Amount').fill('250.00');
    await page.locator('#explain-result').getByText('big-eur').waitFor();
    expect(await page.locator('#explain-result').innerText()).toContain('as version 2');
    expect(((await new PaymentsApi(shop.test).ok<{ version: number }>('GET', '/flow-matrix')) as { version: number }).version).toBe(1);
    await checked('flow-matrix');

    await page.getByRole('button', { name: 'Save the matrix' }).click();
    await page.getByText('Saved as version 2.').waitFor();
    expect(await new PaymentsApi(shop.test).ok<{ version: number; rules: unknown[] }>('GET', '/flow-matrix')).toMatchObject({ version: 2, rules: draft.rules });
  }, 60_000);

  it('when a webhook delivery is replayed from the endpoint page, then the receiver gets the event again, and the deliveries page by cursor', async () => {
    await visit('/webhook-endpoints', 'Webhook endpoints');
    await checked('webhook-endpoints');
    await page.getByRole('link', { name: receiver.url }).click();
    await settled(receiver.url);
    await page.locator('main tbody tr').first().waitFor();
    await checked('webhook-endpoint');
    const eventType = (await page.locator('main tbody tr').first().locator('td').first().innerText()).trim();
    const heard = () => receiver.received.filter((webhook) => (JSON.parse(webhook.body) as { type: string }).type === eventType).length;
    const before = heard();
    await page
      .getByRole('button', { name: new RegExp(`^Replay delivery of ${eventType.replace('.', '\\.')}`) })
      .first()
      .click();
    await waitFor(() => heard() > before, 15_000, 50);

    // More deliveries than a page holds: the list pages by cursor, forth and back.
    const firstPage = await page.locator('main tbody').innerText();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2', { exact: true }).waitFor();
    await settled(receiver.url);
    expect(await page.locator('main tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('main tbody').innerText()).not.toEqual(firstPage);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText('Page 1', { exact: true }).waitFor();
  }, 60_000);

  it('when every other merchant page is opened, then each shows its data (tokens masked only) with no axe finding', async () => {
    const pages: Array<[string, string | RegExp, string, (main: string) => void]> = [
      ['/disputes', 'Disputes', 'disputes', (main) => expect(main).toContain('No disputes')],
      ['/customers', 'Customers', 'customers', (main) => expect(main).toContain('Ada Lovelace')],
      ['/tokens', 'Tokens', 'tokens', (main) => expect(main).toMatch(/555555\*+4444|5555\s?55\*+\s?4444|\*{4,}4444/)],
      ['/flows', 'Flows', 'flows', (main) => expect(main).toContain('simulator_manual_capture')],
      ['/processor-accounts', 'Processor accounts', 'processor-accounts', (main) => expect(main).toContain('No processor accounts')],
      ['/imports', 'Import jobs', 'imports', (main) => expect(main).toContain('No imports')],
    ];
    for (const [path, heading, name, expectation] of pages) {
      await visit(path, heading);
      expectation(await text());
      await checked(name);
    }
    expect(await page.locator('body').innerText()).not.toContain('5555555555554444');

    await visit('/api-keys', 'API keys');
    await page.getByRole('button', { name: 'Create a dashboard key' }).click();
    await page.getByLabel('Who holds it').fill('support desk');
    await page.getByRole('button', { name: 'Create the key' }).click();
    dashboardKey = await page.getByLabel(/New dashboard key/).inputValue();
    expect(dashboardKey).toMatch(/^sk_test_/);
    await page.getByRole('cell', { name: 'support desk' }).waitFor();
    expect(await text()).toMatch(/support desk\s+test\s+dashboard\s+active/);
    await checked('api-keys');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    // A page whose data cannot be loaded says why and offers to try again.
    await page.goto(`${base}/dashboard/#/payments/no-such-payment`);
    await page
      .getByRole('alert')
      .getByText(/Could not load/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    expect({ page: 'error state', findings: await axeFindings(page) }).toEqual({ page: 'error state', findings: [] });
    problems.length = 0;

    await visit('/customers', 'Customers');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await settled('Ada Lovelace');
    expect(await text()).toMatch(/424242\*+4242/);
    expect(await text()).toContain('ada-books-club');
    await checked('customer');
  }, 90_000);

  it("when a dispute needs a response, then the disputes page answers it (evidence with a receipt, submitted; another accepted), and the early fraud warnings page lists the issuer's report, all with no axe finding", async () => {
    const api = new PaymentsApi(shop.test);
    const paid = async (reference: string, card: string) => {
      const payment = await api.ok('POST', '/payments/one-off', { json: { amount: 3100, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
      await submitCard(base, sessionOf(payment), card);
      return api.until(payment.id, 'captured');
    };
    // The simulator's test cards: a dispute while refundable, a fraud warning; and a simulated dispute to answer with evidence.
    const [disputed, warned, answered] = await Promise.all([
      paid('order-dash-2001', SIMULATOR_CARDS.disputed),
      paid('order-dash-2002', SIMULATOR_CARDS.fraudWarning),
      paid('order-dash-2003', SIMULATOR_CARDS.approved),
    ]);
    await api.ok('POST', '/payments/{payment_id}/test/dispute', { params: { payment_id: answered.id }, json: { reason: 'product_not_received' } });

    await visit('/disputes', 'Disputes');
    await page.locator('main tbody tr').nth(1).waitFor();
    expect(await text()).toMatch(/needs response/);
    await checked('disputes');

    await page.getByRole('button', { name: new RegExp(`^Send evidence for the dispute of .* on ${answered.id}$`) }).click();
    await page.getByLabel('What was sold').fill('Signed first edition, order 2003');
    await page.getByLabel('Your explanation').fill('Delivered on 2 June, signed for by the cardholder.');
    await page.getByLabel(/^Receipt/).setInputFiles({
      name: 'receipt-2003.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1'),
    });
    expect({ page: 'dispute evidence dialog', findings: await axeFindings(page) }).toEqual({ page: 'dispute evidence dialog', findings: [] });
    await page.screenshot({ path: join(OUTPUT, 'dispute-evidence.png') });
    await page.getByRole('button', { name: 'Submit the evidence' }).click();
    await page.locator('dialog').waitFor({ state: 'detached' });
    await waitFor(
      async () =>
        (await api.ok<{ data: Array<{ status: string }> }>('GET', '/payments/{payment_id}/disputes', { params: { payment_id: answered.id } })).data[0]
          ?.status === 'under_review',
      15_000,
      50,
    );

    await page.getByRole('button', { name: new RegExp(`^Accept the dispute of .* on ${disputed.id}$`) }).click();
    await page.getByRole('button', { name: /^Accept: lose/ }).click();
    await page.locator('dialog').waitFor({ state: 'detached' });
    await waitFor(
      async () =>
        (await api.ok<{ data: Array<{ status: string }> }>('GET', '/payments/{payment_id}/disputes', { params: { payment_id: disputed.id } })).data[0]
          ?.status === 'lost',
      15_000,
      50,
    );
    await settled('Disputes');
    await page.locator('main tbody .badge-under_review').waitFor();
    await page.locator('main tbody .badge-lost').waitFor();
    await checked('disputes-answered');

    // The disputed payment shows what the chargeback holds, and offers no refund.
    await visit(`/payments/${disputed.id}`, /^Payment order-dash-2001/);
    expect(await text()).toMatch(/Disputed\s+(€\s?|EUR\s?)31\.00/);
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);

    await visit('/early-fraud-warnings', 'Early fraud warnings');
    await page.getByRole('link', { name: warned.id }).waitFor();
    expect(await text()).toMatch(/made with stolen card\s+yes: refund it to avoid a dispute/);
    await checked('early-fraud-warnings');
  }, 90_000);
  it('when an authorized payment is captured through the confirmation, then its page shows capturing, then captured, with no reload', async () => {
    await visit(`/payments/${seeded.capturable}`, 'Payment manual-dash-1006');
    await page.getByRole('button', { name: 'Capture' }).click();
    await page.getByRole('button', { name: 'Capture €56.00' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await until(
      `/Status\\s+captured/.test(document.querySelector('.facts').innerText) && /Captured\\s+€56\\.00/.test(document.querySelector('.facts').innerText)`,
    );
    expect(await page.getByRole('button', { name: 'Capture' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(1);
  }, 60_000);

  it('when a payment was paid with a second card after a decline, then its page shows the 3-D Secure result and the cards tried, and its timeline events open their payload and deliveries', async () => {
    await visit(`/payments/${seeded.secondCard}`, 'Payment order-dash-1007');
    const facts = await page.locator('.facts').innerText();
    expect(facts).toMatch(/3-D Secure\s+authenticated · ECI 05 · liability shift · 3DS 2\.2\.0/);
    expect(facts).toMatch(/Cards tried\s+2 cards; card 1 \(400000\*{6}0002\) card declined/);
    await page.locator('.timeline').waitFor();
    expect(await page.locator('.timeline').innerText()).toMatch(/authorization at simulator \(card 1\): failed/);
    await checked('payment-3ds');
    await page.locator('.timeline').getByRole('link', { name: 'payment.attempt_failed' }).first().click();
    await settled('payment.attempt_failed');
    expect(await page.locator('.payload').innerText()).toContain('"failure_reason": "card_declined"');
    await page.locator('.deliveries li').first().waitFor();
    expect(await page.locator('.deliveries').innerText()).toContain(receiver.url);
    await checked('event');

    await visit('/events', 'Events');
    await page.getByLabel('Event type').selectOption('payment.captured');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(
      `[...document.querySelectorAll('main tbody tr')].length > 0 && [...document.querySelectorAll('main tbody tr td:first-child')].every((cell) => cell.innerText === 'payment.captured')`,
    );
    await checked('events');
  }, 60_000);

  it("when the endpoint's event types are chosen and a test event is sent, then the endpoint keeps only those types and the receiver gets a signed webhook_endpoint.test", async () => {
    await visit(`/webhook-endpoints/${seeded.endpoint}`, receiver.url);
    await page.getByRole('button', { name: 'Choose the events' }).click();
    await page.getByLabel('Only these:').check();
    await page.getByRole('checkbox', { name: 'payment.captured' }).check();
    await page.getByRole('checkbox', { name: 'refund.succeeded' }).check();
    expect({ dialog: 'event types', findings: await axeFindings(page) }).toEqual({ dialog: 'event types', findings: [] });
    await page.screenshot({ path: join(OUTPUT, 'webhook-endpoint-events-dialog.png') });
    await page.getByRole('button', { name: 'Save the events' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await settled(receiver.url);
    expect(await page.locator('.facts').innerText()).toContain('payment.captured, refund.succeeded');

    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page
      .getByRole('status')
      .getByText(/test event \(webhook_endpoint\.test\) is on its way/)
      .waitFor();
    await waitFor(
      () => receiver.received.slice(before).some((webhook) => (JSON.parse(webhook.body) as { type: string }).type === 'webhook_endpoint.test'),
      15_000,
      50,
    );
    await page.locator('main tbody').getByRole('link', { name: 'webhook_endpoint.test' }).first().waitFor();
    await checked('webhook-endpoint-tested');
  }, 60_000);

  it('when the merchant creates a secret key, rolls it keeping the old one an hour, and deletes another, then the list shows each state and every new key once', async () => {
    await visit('/api-keys', 'API keys');
    await page.getByRole('button', { name: 'Create a secret key' }).click();
    await page.getByLabel('Who holds it').fill('warehouse app');
    await page.getByRole('button', { name: 'Create the key' }).click();
    const secret = await page.getByLabel(/New secret key/).inputValue();
    expect(secret).toMatch(/^sk_test_/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const prefix = secret.slice(0, 12);
    await page.getByRole('button', { name: `Roll ${prefix}` }).click();
    await page.getByLabel('The old key stops working').selectOption({ label: 'in 1 hour' });
    await page.getByRole('button', { name: 'Roll the key' }).click();
    const rolled = await page.getByLabel(new RegExp(`New key replacing ${prefix}`)).inputValue();
    expect(rolled).toMatch(/^sk_test_/);
    expect((await fetch(`${base}/events`, { headers: { 'X-API-Key': secret } })).status).toBe(200);
    expect((await fetch(`${base}/events`, { headers: { 'X-API-Key': rolled } })).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await until(`document.querySelector('main tbody').innerText.includes('expiring')`);
    await page.getByRole('button', { name: `Delete ${rolled.slice(0, 12)}` }).click();
    await page.getByRole('button', { name: 'Delete the key' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await until(`document.querySelector('main tbody').innerText.includes('revoked')`);
    expect((await fetch(`${base}/events`, { headers: { 'X-API-Key': rolled } })).status).toBe(401);
    await checked('api-keys-managed');
  }, 60_000);

  it("when the merchant brands the checkout page, then the preview follows the form, and a payment's hosted page shows the new name, colour and logo", async () => {
    await visit('/checkout', 'Checkout');
    expect(await page.getByLabel('Shop name').getAttribute('placeholder')).toBe('Lovelace Books');
    await page.getByLabel('Shop name').fill('Lovelace Books & Co.');
    await page.getByLabel('Button colour').fill('#6d3b1f');
    const logo = await drawLogo(browser);
    await page.getByLabel(/Or upload a logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await page.locator('.checkout-preview-logo').waitFor();
    expect(await page.locator('.checkout-preview-merchant').innerText()).toBe('Lovelace Books & Co.');
    await checked('checkout');
    await page.getByRole('button', { name: 'Save the look' }).click();
    await page.getByText(/Saved: every checkout page opened from now on/).waitFor();

    const payment = await new PaymentsApi(shop.test).ok('POST', '/payments/one-off', {
      json: { amount: 2450, currency_code: 'EUR', source: { type: 'vaultline' } },
    });
    const consumer = await context.newPage();
    await consumer.goto(`${base}/checkout/${sessionOf(payment)}`);
    await consumer.getByRole('button', { name: /^Pay / }).waitFor({ timeout: 15_000 });
    expect(await consumer.locator('#merchant-name').textContent()).toBe('Lovelace Books & Co.');
    expect(await consumer.evaluate("getComputedStyle(document.getElementById('pay')).backgroundColor")).toBe('rgb(109, 59, 31)');
    expect(await consumer.evaluate("document.getElementById('merchant-logo').naturalWidth")).toBeGreaterThan(0);
    await consumer.close();
  }, 60_000);

  it('when the dashboard is 390 px wide (a phone), then the header is whole, nothing scrolls sideways, tables scroll inside themselves, and every changed page is photographed', async () => {
    await page.setViewportSize(PHONE);
    const pages: Array<[string, string | RegExp, string]> = [
      ['/', 'Overview', 'overview'],
      ['/payments', 'Payments', 'payments'],
      [`/payments/${seeded.secondCard}`, 'Payment order-dash-1007', 'payment'],
      ['/events', 'Events', 'events'],
      [`/webhook-endpoints/${seeded.endpoint}`, receiver.url, 'webhook-endpoint'],
      ['/api-keys', 'API keys', 'api-keys'],
      ['/checkout', 'Checkout', 'checkout'],
      ['/refunds', 'Refunds', 'refunds'],
      ['/webhook-endpoints', 'Webhook endpoints', 'webhook-endpoints'],
    ];
    for (const [path, heading, name] of pages) {
      await visit(path, heading);
      if (name === 'payment') await page.locator('.timeline').waitFor();
      const sideways = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
      // The header: each of its parts inside the screen, none cut.
      const clipped = (await page.evaluate(
        `[...document.querySelectorAll('.topbar > *')].filter((el) => { const box = el.getBoundingClientRect(); return box.left < 0 || box.right > document.documentElement.clientWidth; }).map((el) => el.className || el.tagName)`,
      )) as string[];
      expect({ page: name, sideways, clipped }).toEqual({ page: name, sideways: 0, clipped: [] });
      expect({ page: name, findings: await axeFindings(page) }).toEqual({ page: name, findings: [] });
      await page.screenshot({ path: join(OUTPUT, `${name}-390.png`), fullPage: true });
    }
    // An event's page: its payload scrolls inside its frame.
    await visit('/events', 'Events');
    await page.locator('main tbody a').first().click();
    await page.locator('.payload').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    expect({ page: 'event', findings: await axeFindings(page) }).toEqual({ page: 'event', findings: [] });
    await page.screenshot({ path: join(OUTPUT, 'event-390.png'), fullPage: true });
    await page.setViewportSize(VIEWPORT);
  }, 120_000);

  it('when the keyboard is used, then the first Tab reaches the skip link, which moves the focus to the page without leaving it, and a page opened takes the focus', async () => {
    await visit('/refunds', 'Refunds');
    await page.reload();
    await settled('Refunds');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    expect(new URL(page.url()).hash).toBe('#/refunds');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.closest("main") !== null')).toBe(true);

    // A link followed by keyboard: the new page has the focus.
    await page.getByRole('link', { name: 'Disputes' }).focus();
    await page.keyboard.press('Enter');
    await settled('Disputes');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
  }, 30_000);

  it('when the page is 768 px wide, then the navigation sits above the page and the payments table scrolls within it', async () => {
    await page.setViewportSize({ width: 768, height: 1000 });
    await visit('/payments', 'Payments');
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUTPUT, 'payments-768.png') });
    await page.setViewportSize(VIEWPORT);
  }, 30_000);

  it('when the merchant switches to live with the live key, then none of the test data is shown', async () => {
    await visit('/payments', 'Payments');
    await page.getByText('Live data').click();
    await page.getByLabel('Live API key').fill(shop.live.apiKey);
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await page.locator('.live-banner').waitFor();
    await settled('Payments');
    expect(await text()).toContain('No payment matches');
    expect(await text()).not.toContain(REFERENCE);
    await checked('payments-live');
    await visit('/customers', 'Customers');
    expect(await text()).not.toContain('Ada Lovelace');
    await visit('/', 'Overview');
    expect(await text()).toContain('No payments');
    await page.getByText('Test data').click();
    await page.locator('.live-banner').waitFor({ state: 'detached' });
  }, 60_000);

  it("when a page of another origin posts a refund with the browser's cookie, then it is refused, and a session signed out elsewhere brings the sign-in back", async () => {
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>Evil</title><script>
        fetch(${JSON.stringify(`${base}/payments/${seeded.refundable}/refunds`)}, { method: 'POST', credentials: 'include', mode: 'no-cors',
          headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ amount: 100 }) }).finally(() => { document.title = 'sent'; });
      </script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const other = await context.newPage();
    await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    await waitFor(async () => (await other.title()) === 'sent', 10_000, 50);
    await other.close();
    await new Promise<void>((resolve) => evil.close(() => resolve()));
    expect((await new PaymentsApi(shop.test).get(seeded.refundable)).amount.refunded).toBe(1000);

    await visit('/payments', 'Payments');
    const csrf = (await (await page.request.get(`${base}/dashboard/session`)).json()) as { csrf_token: string };
    expect((await page.request.delete(`${base}/dashboard/session`, { headers: { 'X-CSRF-Token': csrf.csrf_token } })).status()).toBe(204);
    await page.getByRole('link', { name: 'Refunds' }).click();
    await page.getByText('Your session ended. Sign in again.').waitFor();
    problems.length = 0;
  }, 60_000);

  it("when support staff sign in with a dashboard key, then a payment's capture and cancel are offered but no set-up change, and they sign out", async () => {
    await page.getByLabel('API key').fill(dashboardKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Support (read-mostly)').waitFor();
    await visit(`/payments/${seeded.authorized}`, /Payment manual-dash-1003/);
    expect(await page.getByRole('button', { name: 'Capture' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    await visit('/flow-matrix', 'Flow matrix');
    expect(await page.getByRole('button', { name: 'Save the matrix' }).count()).toBe(0);
    await visit('/processor-accounts', 'Processor accounts');
    expect(await page.getByRole('button', { name: 'Add an account' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
  }, 60_000);

  it('when an operator signs in, then they create a merchant and every operator page shows its data with no axe finding', async () => {
    await page.getByLabel('API key').fill(ADMIN_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await settled('Merchants');
    expect(await text()).toContain('Lovelace Books');
    await page.getByRole('button', { name: 'Create a merchant' }).click();
    await page.getByLabel('Name').fill('Babbage Engines');
    await page.getByRole('button', { name: 'Create the merchant' }).click();
    await page.getByLabel(/First API key \(test\) of Babbage Engines/).waitFor();
    expect(await page.getByLabel(/First API key/).inputValue()).toMatch(/^sk_test_/);
    await page.getByRole('link', { name: 'Babbage Engines' }).waitFor();
    await checked('merchants');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await page.getByRole('link', { name: 'Lovelace Books' }).click();
    await settled('Lovelace Books');
    expect(await text()).toMatch(/live/);
    await page.getByRole('button', { name: 'Set the rate limit' }).click();
    await page.getByLabel('Requests per second').fill('25');
    await page.getByLabel('Burst').fill('50');
    await page.getByRole('button', { name: 'Save the rate limit' }).click();
    await page.getByText('25 per second, burst 50').waitFor();
    await checked('merchant');

    const pages: Array<[string, string, string, (main: string) => void]> = [
      ['/operators', 'Operators', 'operators', (main) => expect(main).toContain('bootstrap')],
      ['/forward-destinations', 'Forward destinations', 'forward-destinations', (main) => expect(main).toContain('Give a merchant id')],
      ['/key-rotation', 'Key rotation', 'key-rotation', (main) => expect(main).toMatch(/Active key version\s+1/)],
      ['/health', 'Service health', 'health', (main) => expect(main).toMatch(/vault ok in \d+ ms/)],
    ];
    for (const [path, heading, name, expectation] of pages) {
      await visit(path, heading);
      expectation(await text());
      await checked(name);
    }

    // The audit log, filtered to the shop: the refund its session made, with the session's identity.
    // Opened with the filter in its address (what Apply filters makes of the form), from a page with no
    // audit rows: the rows waited for below can only be the filtered list's. Filling the form on the
    // unfiltered list raced on a loaded machine: its newest rows were all the shop's, so the wait passed on
    // the unfiltered page, and the filtered list loaded under the paging that followed (the refund missed).
    await visit(`/audit?merchant_id=${shop.id}`, 'Audit log');
    expect(await page.getByLabel('Merchant id').inputValue()).toBe(shop.id);
    const rows = `[...document.querySelectorAll('main tbody tr')]`;
    await until(`${rows}.length > 0 && ${rows}.every((row) => row.innerText.includes(${JSON.stringify(`${shop.id.slice(0, 13)}…`)}))`);
    // Newest first, and since its refund the shop's session has changed more than a page holds (disputes
    // answered, a capture, keys created, rolled and deleted, endpoint event types, a test event, the
    // checkout's branding): the operator pages back to it.
    const refund = page.getByText(`POST /payments/${seeded.refundable}/refunds`, { exact: true });
    for (let pageNumber = 1; (await refund.count()) === 0; pageNumber += 1) {
      const next = page.getByRole('button', { name: 'Next page' });
      expect({ pageNumber, nextPage: (await next.count()) === 1 && (await next.isEnabled()) }).toEqual({ pageNumber, nextPage: true });
      await next.click();
      // Waits for the next page's rows: the table's caption names the page it shows.
      await until(`document.querySelector('main caption')?.textContent.endsWith('page ${pageNumber + 1}')`);
    }
    await settled('Audit log');
    expect(await text()).toMatch(new RegExp(`${shop.id.slice(0, 13)}… \\(merchant, test\\)\\s+POST /payments/${seeded.refundable}/refunds\\s+201`));
    await checked('audit');
  }, 90_000);
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { validateAgainstOpenApi, validateRequestAgainstOpenApi } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { MERCHANT_API_KEY, MerchantApi, type HttpAnswer } from './merchant-api';
import { registerWebhookEndpoint } from './import-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * The merchant's and the consumer's side of the newer payment interface, through the gateway. Every
 * merchant answer is checked against the OpenAPI document (and every accepted request body too), so
 * the document and the service cannot drift apart.
 */

/** The simulator's cards (issue 13), and the security code used with all of them. */
export const SIMULATOR_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeRiFails: '4000000000003220',
  /** 3-D Secure: the issuer asks for a challenge; frictionless; the challenge completes, then card_declined. */
  challenge: '4000000000003063',
  frictionless: '4000000000003097',
  challengeThenDeclined: '4000008400001629',
  /** A dispute while refundable: captured, then disputed at once (a chargeback needing a response). */
  disputed: '4000000000002685',
  /** A fraud warning: captured, then an early fraud warning at once, no dispute. */
  fraudWarning: '4000000000005423',
  /** The capture fails (capture_failed); 4000000000000267: the payment's first capture fails, a capture asked again succeeds. */
  captureFails: '4000000000000259',
  captureFailsOnce: '4000000000000267',
} as const;
export const PAYMENT_CVC = '538';

/** Settings that keep payments quick in tests: the worker and the simulator's capture delay short, webhooks to loopback. */
export const PAYMENT_ENV: Record<string, string> = {
  PAYMENT_WORKER_POLL_MS: '50',
  PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: '50',
  PROCESSOR_SIMULATOR_REFUND_DELAY_MS: '50',
  AFTER_SALE_WORKER_POLL_MS: '50',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};

export interface PaymentView {
  id: string;
  status: 'processing' | 'authorized' | 'capturing' | 'partially_captured' | 'captured' | 'failed' | 'canceling' | 'canceled';
  amount: { requested: number; authorized?: number; captured?: number; refunded?: number; capturable?: number };
  cancellation_reason?: 'requested_by_merchant' | 'authorization_expired';
  action_requirement?: { type: 'use_sdk'; session_id: string; checkout_url?: string };
  use_case: string;
  currency_code: string;
  reference: string | null;
  created_at: string;
  credential_id?: string;
  initial_payment_id?: string;
  authentication_preference?: string;
  source?: { type: 'card'; masked_account_number: string; pan_type: string };
  flow?: string;
  failure_reason?: string | null;
  authentication?: {
    type: '3ds';
    version: string | null;
    status: 'authenticated' | 'attempted' | 'failed' | 'not_required';
    eci: string | null;
    liability_shift: boolean;
  };
  next_action?: { type: 'consumer_authentication' };
  attempts?: number;
  last_failed_attempt?: { number: number; failure_reason: string; masked_account_number: string | null; failed_at: string };
}

export interface TransactionView {
  processor: string;
  kind: 'risk' | 'authentication_3ri' | 'authentication_3ds' | 'authorization' | 'capture' | 'void';
  status: 'succeeded' | 'failed' | 'error';
  failure_reason: string | null;
  /** Minor units, for authorizations, captures and voids. */
  amount: number | null;
  /** The use case the processor was sent, in the words of the payment's interface. */
  use_case?: string;
  /** Consumer-present payments: the card attempt on the hosted page. */
  attempt?: number;
}

interface CallOptions {
  params?: Record<string, string>;
  query?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

export class PaymentsApi {
  constructor(readonly merchant: MerchantApi) {}

  /** Calls `template` (an OpenAPI path) with its parameters filled in; fails on an answer the document does not describe. */
  async call(method: string, template: string, options: CallOptions = {}): Promise<HttpAnswer> {
    const path =
      template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? '')) + (options.query ? `?${options.query}` : '');
    const answer = await this.merchant.call(method, path, { json: options.json, headers: options.headers });
    const body: unknown = answer.text ? JSON.parse(answer.text) : undefined;
    const response = validateAgainstOpenApi(method, template, answer.status, body);
    if (!response.valid)
      throw new Error(`${method} ${path} answered ${answer.status}, not as the OpenAPI document says: ${response.errors.join('; ')}\n${answer.text}`);
    if (answer.status < 300 && options.json !== undefined) {
      const request = validateRequestAgainstOpenApi(method, template, options.json);
      if (!request.valid) throw new Error(`${method} ${path} accepted a body the OpenAPI document refuses: ${request.errors.join('; ')}`);
    }
    return answer;
  }

  /** A call that must answer 200 (201 for creations of flows), returning the body. */
  async ok<T = PaymentView>(method: string, template: string, options: CallOptions = {}): Promise<T> {
    const answer = await this.call(method, template, options);
    if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${template} answered ${answer.status}: ${answer.text}`);
    return answer.json<T>();
  }

  /** A call that must be refused with this status and problem code. */
  async refused(status: number, code: string, method: string, template: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const answer = await this.call(method, template, options);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect({ status: answer.status, code: answer.json().code }).toEqual({ status, code });
    return answer.json();
  }

  get(paymentId: string): Promise<PaymentView> {
    return this.ok('GET', '/payments/{payment_id}', { params: { payment_id: paymentId } });
  }

  /** Polls GET /payments/{id} until the payment is in `status` (fails early on another final status). */
  async until(paymentId: string, status: PaymentView['status'], timeoutMs = 20_000): Promise<PaymentView> {
    const finals = ['captured', 'failed', 'canceled'];
    return waitFor(
      async () => {
        const payment = await this.get(paymentId);
        if (payment.status === status) return payment;
        if (finals.includes(payment.status))
          throw new Error(`payment ${paymentId} ended ${payment.status} (${payment.failure_reason ?? ''}), expected ${status}`);
        return null;
      },
      timeoutMs,
      25,
    );
  }

  async transactions(paymentId: string): Promise<TransactionView[]> {
    return (await this.ok<{ data: TransactionView[] }>('GET', '/payments/{payment_id}/transactions', { params: { payment_id: paymentId } })).data;
  }
}

export const sessionOf = (payment: PaymentView): string => {
  if (!payment.action_requirement) throw new Error(`payment ${payment.id} has no action_requirement`);
  return payment.action_requirement.session_id;
};

/** YYYYMMDD of a day `days` from now (UTC). */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/** An ISO time `days` from now: the X-Test-Now of "next month". */
export const timeFromNow = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();

/**
 * The consumer's card entry without a browser, as checkout.js posts it (public route, no key). The
 * session reaches the vault by event just after the payment was created: wait until it is known.
 */
export async function submitCard(baseUrl: string, sessionId: string, number: string, cvc: string = PAYMENT_CVC): Promise<void> {
  await waitFor(async () => (await fetch(`${baseUrl}/sessions/${sessionId}/status`)).status === 200, 5_000, 20);
  const response = await fetch(`${baseUrl}/sessions/${sessionId}/card`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ card: { number, exp_month: 12, exp_year: 2034, cvc, name: 'Ada Lovelace' } }),
  });
  if (response.status !== 201) throw new Error(`POST /sessions/${sessionId}/card answered ${response.status}: ${await response.text()}`);
}

/**
 * After a failed card the session opens again for another (payment.attempt_failed); the consumer leaves
 * instead (the hosted page's "Return to the shop"): the payment fails at once with the card's reason.
 */
export async function leaveAfterFailedCard(baseUrl: string, sessionId: string): Promise<void> {
  await waitFor(
    async () => {
      const status = (await (await fetch(`${baseUrl}/sessions/${sessionId}/status`)).json()) as { state: string; last_failed_attempt: unknown };
      return status.state === 'open' && status.last_failed_attempt !== null;
    },
    30_000,
    25,
  );
  const response = await fetch(`${baseUrl}/sessions/${sessionId}/abandon`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`POST /sessions/${sessionId}/abandon answered ${response.status}: ${await response.text()}`);
}

/**
 * Waits for the hosted page's outcome heading. The local profile on a loaded 2-core machine can take a
 * while (six processes, Redis Streams, Chromium); when it does not come, the failure says what the
 * consumer saw instead (a form error, "Processing…") rather than only that the heading is missing.
 */
export async function outcomeShown(page: Page, heading: string): Promise<void> {
  try {
    await page.getByRole('heading', { name: heading }).waitFor({ timeout: 60_000 });
  } catch (error) {
    const seen = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '(page not readable)')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 400);
    throw new Error(`${(error as Error).message}\nthe page showed: ${seen}`);
  }
}

/** The consumer on the hosted page in Chromium: types the card and pays; the page is left open to read the outcome. */
export async function payOnHostedPage(
  browser: Browser,
  baseUrl: string,
  sessionId: string,
  number: string,
  viewport = { width: 420, height: 760 },
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(`${baseUrl}/checkout/${sessionId}`);
  await typeCardAndPay(page, number);
  return page;
}

/** Types a card on the hosted page's form (once it is ready) and presses Pay. */
export async function typeCardAndPay(page: Page, number: string): Promise<void> {
  // The page shows the amount once it has loaded its session and set up the form; typing before that can
  // be lost (seen on a loaded machine: the card number field came up empty).
  await page.getByRole('button', { name: /^Pay .*\d/ }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Card number').pressSequentially(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill(PAYMENT_CVC);
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /Pay/ }).click();
}

/**
 * Waits until the hosted page offers another card after a failed one (the form again, under an alert that
 * names the card and why); resolves with the alert's two lines.
 */
export async function anotherCardOffered(page: Page): Promise<{ title: string; detail: string }> {
  try {
    await page.locator('#attempt-failed').waitFor({ state: 'visible', timeout: 60_000 });
  } catch (error) {
    const seen = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '(page not readable)')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 400);
    throw new Error(`${(error as Error).message}\nthe page showed: ${seen}`);
  }
  return { title: (await page.locator('#attempt-title').textContent()) ?? '', detail: (await page.locator('#attempt-detail').textContent()) ?? '' };
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** The merchant's shop on loopback: the page the consumer returns to (return_url). */
export async function startShop(): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>Shop</title><h1>Thank you for your order</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A live API key of a new merchant, through the operator API. */
export async function issueLiveKey(baseUrl: string, adminApiKey: string): Promise<string> {
  const admin = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'X-Admin-Key': adminApiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const merchant = (await (await admin('/admin/merchants', { name: 'Live shop' })).json()) as { id: string };
  const issued = await admin(`/admin/merchants/${merchant.id}/api-keys`, { mode: 'live' });
  if (issued.status !== 201) throw new Error(`issuing a live key answered ${issued.status}: ${await issued.text()}`);
  return ((await issued.json()) as { api_key: string }).api_key;
}

/** The cards of the payment path of the leak scan: a captured one-off, a declined one, stored credentials charged again. */
export const LEAK_SCAN_PAYMENT_CARDS = {
  oneOff: { number: '5555555555554444', cvc: '538' },
  declined: { number: SIMULATOR_CARDS.declined, cvc: '538' },
  stored: { number: '2223003122003222', cvc: '538' },
  /** The earlier interface: a first payment whose mandate is charged again. */
  mandate: { number: '4000056655665556', cvc: '538' },
} as const;

export interface PaymentScenarioOutcome {
  oneOff: PaymentView;
  declined: PaymentView;
  subsequent: PaymentView;
  /** Earlier interface (its own shape): the first payment with its mandate, and a merchant-initiated charge on it. */
  mandateFirst: Record<string, unknown>;
  mandateCharge: Record<string, unknown>;
}

/**
 * A payment's whole path for the leak scan: cards entered through POST /sessions/{id}/card, a one-off
 * captured, a declined one failed (the consumer left after the decline), an initial unscheduled payment whose stored credentials pay again.
 */
export async function runPaymentScenario(baseUrl: string, merchant: MerchantApi): Promise<PaymentScenarioOutcome> {
  const api = new PaymentsApi(merchant);
  const create = (path: string, reference: string) =>
    api.ok('POST', path, { json: { amount: 1999, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
  const paid = async (path: string, reference: string, card: { number: string; cvc: string }) => {
    const payment = await create(path, reference);
    await submitCard(baseUrl, sessionOf(payment), card.number, card.cvc);
    return payment;
  };
  const cards = LEAK_SCAN_PAYMENT_CARDS;
  const customer = await api.ok<{ id: string }>('POST', '/customers', { json: { name: 'Leak Scan' } });
  const firstOnMandate = async () => {
    const first = await api.ok('POST', '/payments', {
      json: {
        amount: 1999,
        currency_code: 'EUR',
        confirm: true,
        customer_id: customer.id,
        store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'leak-mandate' },
      },
    });
    await submitCard(baseUrl, sessionOf(first), cards.mandate.number, cards.mandate.cvc);
    return first;
  };
  const declinedThenLeft = async () => {
    const payment = await paid('/payments/one-off', 'leak-declined', cards.declined);
    await leaveAfterFailedCard(baseUrl, sessionOf(payment));
    return payment;
  };
  const [oneOff, declined, initial, mandateFirst] = await Promise.all([
    paid('/payments/one-off', 'leak-one-off', cards.oneOff),
    declinedThenLeft(),
    paid('/payments/unscheduled', 'leak-initial', cards.stored),
    firstOnMandate(),
  ]);
  await api.until(initial.id, 'captured');
  const next = await api.ok('POST', '/payments/unscheduled/{payment_id}/subsequent', {
    params: { payment_id: initial.id },
    json: { amount: 999, currency_code: 'EUR', reference: 'leak-subsequent' },
  });
  const mandate = (await api.until(mandateFirst.id, 'captured')) as unknown as { payment_method: { id: string } };
  const charge = await api.ok('POST', '/payments', {
    json: { amount: 999, currency_code: 'EUR', confirm: true, payment_method_id: mandate.payment_method.id },
  });
  return {
    oneOff: await api.until(oneOff.id, 'captured'),
    declined: await api.until(declined.id, 'failed'),
    subsequent: await api.until(next.id, 'captured'),
    mandateFirst: mandate as unknown as Record<string, unknown>,
    mandateCharge: (await api.until(charge.id, 'captured')) as unknown as Record<string, unknown>,
  };
}

/** The merchant's backend on a running system: its payments API and a webhook endpoint of its own for every event type. */
export async function merchantWithWebhooks(baseUrl: string): Promise<{ api: PaymentsApi; receiver: WebhookReceiver; secret: string }> {
  const receiver = await startWebhookReceiver();
  const merchant = new MerchantApi(baseUrl, MERCHANT_API_KEY);
  const { secret } = await registerWebhookEndpoint(merchant, receiver.url, []);
  return { api: new PaymentsApi(merchant), receiver, secret };
}

import { validateAgainstOpenApi } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { createMerchantOfBothModes, startSystem, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, leaveAfterFailedCard, sessionOf, submitCard, type PaymentView } from './support/payment-scenario';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * The dashboard's server side (issue 29) through the whole embedded system, without a browser: a browser's
 * requests are made with the session cookie, the CSRF token and the Origin it would send. Sign in with a
 * secret key, read the overview's reports, find a payment by reference, refund it, switch to live and see
 * none of the test data; a dashboard key's session refunds but does not create; every change is audited.
 */
interface Session {
  cookie: string;
  csrf: string;
  identity: Record<string, unknown>;
}

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

describe('the dashboard session through the embedded system', () => {
  let running: RunningSystem;
  let receiver: WebhookReceiver;
  let merchant: MerchantOfBothModes;
  let api: PaymentsApi;
  let captured: PaymentView;
  const reference = `dash-${Date.now()}`;

  const base = () => running.system.baseUrl;

  async function browser(session: Session | null, method: string, path: string, body?: unknown, options: { csrf?: boolean } = {}): Promise<Answer> {
    const headers: Record<string, string> = { origin: base(), 'sec-fetch-site': 'same-origin' };
    if (session) headers.cookie = session.cookie;
    if (session && options.csrf !== false && method !== 'GET') headers['x-csrf-token'] = session.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      json: text && (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }

  async function signIn(apiKey: string): Promise<Session> {
    const answer = await browser(null, 'POST', '/dashboard/session', { api_key: apiKey });
    expect(answer.status).toBe(201);
    const setCookie = answer.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^vaultline_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    return { cookie: setCookie.split(';')[0]!, csrf: answer.json.csrf_token as string, identity: answer.json };
  }

  const documented = (method: string, template: string, answer: Answer) => {
    const verdict = validateAgainstOpenApi(method, template, answer.status, answer.json);
    expect({ template, errors: verdict.errors }).toEqual({ template, errors: [] });
  };

  const auditOf = (query: string) =>
    fetch(`${base()}/admin/audit?limit=100&${query}`, { headers: { 'x-admin-key': running.system.adminApiKey } }).then(
      async (response) => ((await response.json()) as { data: Array<Record<string, unknown>> }).data,
    );

  beforeAll(async () => {
    [running, receiver] = await Promise.all([startSystem(PAYMENT_ENV, 'vaultline-dashboard-session-'), startWebhookReceiver()]);
    merchant = await createMerchantOfBothModes(running.system, 'Dashboard Shop');
    api = new PaymentsApi(merchant.test);
    await registerWebhookEndpoint(merchant.test, receiver.url, []);
    const pay = async (card: string, ref: string, amount: number) => {
      const payment = await api.ok('POST', '/payments/one-off', { json: { amount, currency_code: 'EUR', reference: ref, source: { type: 'vaultline' } } });
      await submitCard(base(), sessionOf(payment), card);
      return payment;
    };
    const [approved, other, declined] = await Promise.all([
      pay(SIMULATOR_CARDS.approved, reference, 2500),
      pay(SIMULATOR_CARDS.approved, `${reference}-2`, 1000),
      pay(SIMULATOR_CARDS.declined, `${reference}-declined`, 700),
    ]);
    await leaveAfterFailedCard(base(), sessionOf(declined));
    captured = await api.until(approved.id, 'captured');
    await api.until(other.id, 'captured');
    await api.until(declined.id, 'failed');
  }, 90_000);

  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
  });

  it('when a secret key signs in, then the overview reports, the search by reference and a refund work through the cookie, and the refund is audited with the session', async () => {
    const session = await signIn(merchant.test.apiKey);
    expect(session.identity).toMatchObject({ kind: 'merchant', role: 'merchant', mode: 'test', merchant_id: merchant.id });

    const report = await browser(session, 'GET', '/reports/payments');
    documented('GET', '/reports/payments', report);
    expect(report.json.totals).toMatchObject({
      count: 3,
      succeeded: 2,
      failed: 1,
      pending: 0,
      success_rate: 0.6667,
      amounts: [{ currency_code: 'EUR', authorized: 3500, captured: 3500, refunded: 0, disputed: 0, won_back: 0, net: 3500 }],
    });
    expect(report.json.by_processor).toEqual([expect.objectContaining({ processor: 'simulator', succeeded: 2, failed: 1 })]);
    expect((report.json.by_flow as Array<{ attempts: number }>).reduce((sum, row) => sum + row.attempts, 0)).toBe(3);
    expect(report.json.decline_reasons).toEqual([{ reason: expect.any(String), count: 1 }]);
    const today = (report.json.days as Array<{ date: string; count: number }>).at(-1)!;
    expect(today).toMatchObject({ date: new Date().toISOString().slice(0, 10), count: 3 });

    const deliveries = await waitFor(
      async () => {
        const answer = await browser(session, 'GET', '/reports/webhook-deliveries');
        return (answer.json.totals as { succeeded: number }).succeeded > 0 ? answer : null;
      },
      20_000,
      100,
    );
    documented('GET', '/reports/webhook-deliveries', deliveries);
    expect(deliveries.json.by_endpoint).toEqual([expect.objectContaining({ url: receiver.url })]);

    const found = await browser(session, 'GET', `/payments?reference=${encodeURIComponent(reference)}`);
    expect((found.json.data as PaymentView[]).map((payment) => payment.id)).toEqual([captured.id]);

    const refundPath = `/payments/${captured.id}/refunds`;
    expect((await browser(session, 'POST', refundPath, { amount: 500 }, { csrf: false })).json.code).toBe('csrf_token_invalid');
    const refund = await browser(session, 'POST', refundPath, { amount: 500 });
    expect(refund.status).toBe(201);
    expect(refund.json).toMatchObject({ payment_id: captured.id, amount: 500 });

    const entries = await waitFor(async () => {
      const found = (await auditOf(`merchant_id=${merchant.id}&via=dashboard_session`)).filter((entry) => entry.path === refundPath);
      return found.length > 0 ? found : null;
    });
    expect(entries[0]).toMatchObject({ method: 'POST', status: 201, role: 'merchant', mode: 'test', target_ids: [captured.id] });
    expect(entries[0]!.session_id_prefix).toMatch(/^[0-9a-f]{12}$/);
  });

  it('when the session switches to live, then it sees none of the test data; switching back shows it again', async () => {
    const session = await signIn(merchant.test.apiKey);
    expect((await browser(session, 'POST', '/dashboard/session/mode', { mode: 'live' })).json.code).toBe('mode_key_required');
    const live = await browser(session, 'POST', '/dashboard/session/mode', { mode: 'live', api_key: merchant.live.apiKey });
    expect(live.json).toMatchObject({ mode: 'live', modes: ['test', 'live'] });

    expect((await browser(session, 'GET', '/payments')).json.data).toEqual([]);
    expect((await browser(session, 'GET', `/payments/${captured.id}`)).status).toBe(404);
    expect((await browser(session, 'GET', '/webhook-endpoints')).json.data).toEqual([]);
    const report = await browser(session, 'GET', '/reports/payments');
    expect(report.json).toMatchObject({ livemode: true, totals: { count: 0, succeeded: 0, failed: 0, amounts: [] }, by_processor: [], decline_reasons: [] });
    expect(((await browser(session, 'GET', '/reports/webhook-deliveries')).json.totals as { messages: number }).messages).toBe(0);

    await browser(session, 'POST', '/dashboard/session/mode', { mode: 'test' });
    expect(((await browser(session, 'GET', '/payments')).json.data as unknown[]).length).toBe(3);
  });

  it('when a dashboard key (issued by the secret key) signs in, then it refunds but cannot create a payment, a webhook endpoint or a key', async () => {
    const issued = await merchant.test.call('POST', '/api-keys', { json: { label: 'support' } });
    expect(issued.status).toBe(201);
    const session = await signIn(issued.json<{ api_key: string }>().api_key);
    expect(session.identity.role).toBe('dashboard');

    expect((await browser(session, 'GET', `/payments/${captured.id}`)).status).toBe(200);
    expect((await browser(session, 'POST', `/payments/${captured.id}/refunds`, { amount: 100 })).status).toBe(201);
    for (const [path, body] of [
      ['/payments/one-off', { amount: 100, currency_code: 'EUR', source: { type: 'vaultline' } }],
      ['/webhook-endpoints', { url: 'https://example.com/hooks' }],
      ['/api-keys', {}],
    ] as const) {
      const refused = await browser(session, 'POST', path, body);
      expect({ path, status: refused.status, code: refused.json.code }).toEqual({ path, status: 403, code: 'insufficient_scope' });
    }
    expect((await browser(session, 'GET', '/admin/merchants')).json.code).toBe('insufficient_scope');
  });

  it('when an operator signs in, then it creates a merchant through the admin API with the cookie, and signing out ends the session', async () => {
    const session = await signIn(running.system.adminApiKey);
    expect(session.identity).toMatchObject({ kind: 'operator', role: 'operator' });
    const created = await browser(session, 'POST', '/admin/merchants', { name: 'Made By An Operator Session' });
    expect(created.status).toBe(201);
    expect((await browser(session, 'GET', '/payments')).json.code).toBe('insufficient_scope');
    const out = await browser(session, 'DELETE', '/dashboard/session');
    expect(out.status).toBe(204);
    expect((await browser(session, 'GET', '/admin/merchants')).json.code).toBe('session_expired');
    const entries = await auditOf('via=dashboard_session&role=operator');
    expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
      expect.arrayContaining(['POST /admin/merchants 201', 'DELETE /dashboard/session 204', 'POST /dashboard/session 201']),
    );
  });

  it('when /dashboard is opened, then it carries the strict content security policy', async () => {
    const page = await fetch(`${base()}/dashboard`);
    expect([200, 503]).toContain(page.status);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

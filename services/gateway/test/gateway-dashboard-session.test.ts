import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InternalTokenSigner } from '@vaultline/auth';
import { ManualClock, waitFor } from '@vaultline/core';
import { SqliteDocumentStore } from '@vaultline/store';
import type { AdminAuditEntry } from '../src/domain/admin-audit-entry';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { adminCall, call, expectDocumented, expectProblem, type CallResult } from './support/http-call';
import type { EchoBody } from './support/echo-upstream';

/** PUBLIC_BASE_URL is https in these tests: the cookie is Secure and carries the __Host- prefix. */
const COOKIE = '__Host-vaultline_session';

let upstreams: Upstreams;
let gateway: RunningGateway;
let store: SqliteDocumentStore;
const dir = mkdtempSync(join(tmpdir(), 'vaultline-dashboard-session-'));

interface Merchant {
  id: string;
  secretKey: string;
}

async function createMerchant(name: string): Promise<Merchant> {
  const created = await adminCall(gateway.url, ADMIN_KEY, '/admin/merchants', 'POST', { name });
  return { id: created.json.id as string, secretKey: created.json.api_key as string };
}

async function issueKey(merchantId: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const issued = await adminCall(gateway.url, ADMIN_KEY, `/admin/merchants/${merchantId}/api-keys`, 'POST', body);
  expect(issued.status).toBe(201);
  return { id: issued.json.id as string, key: issued.json.api_key as string };
}

/** A browser's session: the cookie it was given and the CSRF token the sign-in answered. */
interface Session {
  cookie: string;
  csrf: string;
  signIn: CallResult;
}

async function signIn(base: string, apiKey: string): Promise<Session> {
  const signed = await call(base, '/dashboard/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  expect(signed.status).toBe(201);
  const setCookie = signed.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] ?? '', csrf: signed.json.csrf_token as string, signIn: signed };
}

/** A request the browser sends with the session cookie; `csrf` adds X-CSRF-Token. */
function withSession(
  base: string,
  session: Session,
  path: string,
  init: { method?: string; body?: unknown; csrf?: string | false; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { cookie: session.cookie, ...(init.headers ?? {}) };
  if (init.csrf !== false) headers['x-csrf-token'] = init.csrf ?? session.csrf;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return call(base, path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

const echoed = (result: CallResult) => result.json as unknown as EchoBody;

async function auditEntries(query: string, which: (entry: AdminAuditEntry) => boolean): Promise<AdminAuditEntry[]> {
  return waitFor(async () => {
    const page = await adminCall(gateway.url, ADMIN_KEY, `/admin/audit?limit=100${query}`);
    const matching = (page.json.data as AdminAuditEntry[]).filter(which);
    return matching.length > 0 ? matching : null;
  });
}

beforeAll(async () => {
  upstreams = await startUpstreams();
  store = await SqliteDocumentStore.open(join(dir, 'gateway.db'));
  gateway = await startGateway(upstreams, store);
});

afterAll(async () => {
  await gateway.close();
  await upstreams.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('signing in to the dashboard', () => {
  it("when a merchant's secret key is exchanged, then the answer is the session's identity and CSRF token, and the cookie is httpOnly, Secure, SameSite=Strict, Path=/", async () => {
    const merchant = await createMerchant('Session Shop');
    const session = await signIn(gateway.url, merchant.secretKey);
    const setCookie = session.signIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$`));
    expect(session.signIn.json).toMatchObject({
      object: 'dashboard_session',
      kind: 'merchant',
      role: 'merchant',
      merchant_id: merchant.id,
      merchant_name: 'Session Shop',
      mode: 'test',
      modes: ['test'],
      operator_id: null,
    });
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(session.signIn.json.expires_at as string) - Date.parse(session.signIn.json.created_at as string)).toBe(12 * 3600 * 1000);
    expect(session.signIn.text).not.toContain(merchant.secretKey);
    expect(session.signIn.text).not.toContain(session.cookie.split('=')[1]);
    expect(session.signIn.headers.get('cache-control')).toBe('no-store');

    const whoAmI = await withSession(gateway.url, session, '/dashboard/session', { csrf: false });
    expect(whoAmI.json).toMatchObject({ kind: 'merchant', role: 'merchant', mode: 'test', csrf_token: session.csrf });
  });

  it('when a dashboard key or an operator key is exchanged, then the session has the role dashboard or operator', async () => {
    const merchant = await createMerchant('Support Shop');
    const dashboardKey = await issueKey(merchant.id, { scope: 'dashboard', mode: 'live', label: 'support' });
    const dashboard = await signIn(gateway.url, dashboardKey.key);
    expect(dashboard.signIn.json).toMatchObject({ kind: 'merchant', role: 'dashboard', mode: 'live', modes: ['live'], key_id: dashboardKey.id });

    const operator = await signIn(gateway.url, ADMIN_KEY);
    expect(operator.signIn.json).toMatchObject({ kind: 'operator', role: 'operator', operator_name: 'bootstrap', merchant_id: null, mode: null, modes: [] });
  });

  it('when the key is unknown, an import key or missing, then it answers 401 or 403 and sets no cookie', async () => {
    const post = (body: unknown) =>
      call(gateway.url, '/dashboard/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const unknown = await post({ api_key: 'sk_test_0000000000000000000000000000000' });
    expectProblem(unknown, 401, 'invalid_api_key');
    expect(unknown.headers.get('set-cookie')).toBeNull();
    expectProblem(await post({ api_key: 'admin_not_an_operator_key_at_all' }), 401, 'invalid_admin_key');
    expectProblem(await post({}), 422, 'validation_failed');

    const merchant = await createMerchant('Import Shop');
    const signer = new InternalTokenSigner('importer', upstreams.importerKeys.privateKeyPem);
    const minted = await call(gateway.internalUrl, '/internal/api-keys', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${signer.sign('gateway', { merchantId: merchant.id, scopes: ['api_keys:mint'] })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ merchant_id: merchant.id, scopes: ['cde_import'], label: 'import job', mode: 'test' }),
    });
    expectProblem(await post({ api_key: minted.json.api_key }), 403, 'insufficient_scope');
  });

  it('when sign-in comes from another origin, then it answers 403 cross_origin_request', async () => {
    const merchant = await createMerchant('Origin Shop');
    const refused = await call(gateway.url, '/dashboard/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ api_key: merchant.secretKey }),
    });
    expectProblem(refused, 403, 'cross_origin_request');
  });
});

describe('requests signed with the session cookie', () => {
  it('when a merchant session reads, then the service sees the merchant, its mode and scope, and never the cookie or the CSRF token', async () => {
    const merchant = await createMerchant('Reading Shop');
    const session = await signIn(gateway.url, merchant.secretKey);
    const read = await withSession(gateway.url, session, '/events?limit=1', { csrf: false });
    expect(read.status).toBe(200);
    expect(echoed(read).auth).toMatchObject({ merchantId: merchant.id, mode: 'test', scopes: ['merchant'] });
    expect(echoed(read).rawHeaderNames).not.toContain('cookie');
    expect(echoed(read).rawHeaderNames).not.toContain('x-csrf-token');
  });

  it('when a change comes without the CSRF token or with another, then it answers 403 csrf_token_invalid; with it, the change is made', async () => {
    const merchant = await createMerchant('Csrf Shop');
    const session = await signIn(gateway.url, merchant.secretKey);
    const body = { url: 'https://shop.example/hooks' };
    const without = await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body, csrf: false });
    expectProblem(without, 403, 'csrf_token_invalid');
    expect(without.json.field).toBe('X-CSRF-Token');
    expectProblem(
      await withSession(gateway.url, session, '/webhook-endpoints', {
        method: 'POST',
        body,
        csrf: `${session.csrf.slice(0, -1)}${session.csrf.endsWith('A') ? 'B' : 'A'}`,
      }),
      403,
      'csrf_token_invalid',
    );
    const other = await signIn(gateway.url, merchant.secretKey);
    expectProblem(await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body, csrf: other.csrf }), 403, 'csrf_token_invalid');
    expectProblem(
      await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body, headers: { origin: 'https://evil.example' } }),
      403,
      'cross_origin_request',
    );
    expectProblem(
      await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body, headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      'cross_origin_request',
    );

    const made = await withSession(gateway.url, session, '/webhook-endpoints', {
      method: 'POST',
      body,
      headers: { origin: 'https://api.vaultline.test', 'sec-fetch-site': 'same-origin' },
    });
    expect(made.status).toBe(201);
    expect(echoed(made)).toMatchObject({ method: 'POST', url: '/webhook-endpoints', auth: { merchantId: merchant.id } });
  });

  it('when a request carries an API key, then the cookie is ignored and no CSRF token is asked for', async () => {
    const merchant = await createMerchant('Key Shop');
    const other = await createMerchant('Cookie Shop');
    const session = await signIn(gateway.url, other.secretKey);
    const made = await call(gateway.url, '/webhook-endpoints', {
      method: 'POST',
      headers: { 'x-api-key': merchant.secretKey, cookie: session.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(made.status).toBe(201);
    expect(echoed(made).auth.merchantId).toBe(merchant.id);
  });

  it('when the key that opened the session is revoked, then the session ends at once', async () => {
    const merchant = await createMerchant('Revoked Shop');
    const key = await issueKey(merchant.id, { scope: 'dashboard' });
    const session = await signIn(gateway.url, key.key);
    expect((await withSession(gateway.url, session, '/events', { csrf: false })).status).toBe(200);
    expect((await adminCall(gateway.url, ADMIN_KEY, `/admin/merchants/${merchant.id}/api-keys/${key.id}`, 'DELETE')).status).toBe(200);
    expectProblem(await withSession(gateway.url, session, '/events', { csrf: false }), 401, 'session_expired');
  });
});

describe('signing out', () => {
  it('when DELETE /dashboard/session comes with the CSRF token, then the session ends, the cookie is cleared and the next request is 401 session_expired', async () => {
    const merchant = await createMerchant('Leaving Shop');
    const session = await signIn(gateway.url, merchant.secretKey);
    expectProblem(await withSession(gateway.url, session, '/dashboard/session', { method: 'DELETE', csrf: false }), 403, 'csrf_token_invalid');
    const out = await withSession(gateway.url, session, '/dashboard/session', { method: 'DELETE' });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe(`${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure`);
    expectProblem(await withSession(gateway.url, session, '/dashboard/session', { csrf: false }), 401, 'session_expired');
    expectProblem(await withSession(gateway.url, session, '/events', { csrf: false }), 401, 'session_expired');
    expectProblem(await call(gateway.url, '/dashboard/session'), 401, 'session_expired');
  });
});

describe('test and live through a session', () => {
  it('when a test session switches to live, then it needs a live key of the same merchant, and then reads only live data', async () => {
    const merchant = await createMerchant('Two Worlds');
    const live = await issueKey(merchant.id, { mode: 'live' });
    const stranger = await createMerchant('Stranger');
    const strangerLive = await issueKey(stranger.id, { mode: 'live' });
    const session = await signIn(gateway.url, merchant.secretKey);
    expect(echoed(await withSession(gateway.url, session, '/events', { csrf: false })).auth.mode).toBe('test');

    expectProblem(
      await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live' }, csrf: false }),
      403,
      'csrf_token_invalid',
    );
    expectProblem(await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live' } }), 403, 'mode_key_required');
    expectProblem(
      await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live', api_key: merchant.secretKey } }),
      422,
      'mode_key_mismatch',
    );
    expectProblem(
      await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live', api_key: strangerLive.key } }),
      422,
      'mode_key_mismatch',
    );
    expect(echoed(await withSession(gateway.url, session, '/events', { csrf: false })).auth.mode).toBe('test');

    const switched = await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live', api_key: live.key } });
    expect(switched.json).toMatchObject({ mode: 'live', modes: ['test', 'live'], key_id: live.id, csrf_token: session.csrf });
    expect(echoed(await withSession(gateway.url, session, '/events', { csrf: false })).auth).toMatchObject({ merchantId: merchant.id, mode: 'live' });

    const back = await withSession(gateway.url, session, '/dashboard/session/mode', { method: 'POST', body: { mode: 'test' } });
    expect(back.json.mode).toBe('test');
    expect(echoed(await withSession(gateway.url, session, '/events', { csrf: false })).auth.mode).toBe('test');
  });

  it('when an operator session asks to switch mode, then it answers 403 mode_switch_not_allowed', async () => {
    const operator = await signIn(gateway.url, ADMIN_KEY);
    expectProblem(
      await withSession(gateway.url, operator, '/dashboard/session/mode', { method: 'POST', body: { mode: 'live' } }),
      403,
      'mode_switch_not_allowed',
    );
  });
});

describe('roles through a session', () => {
  it('when a dashboard-key session reads, captures or replays, then it passes; when it creates an endpoint or calls the admin API, then 403 insufficient_scope', async () => {
    const merchant = await createMerchant('Read Mostly');
    const key = await issueKey(merchant.id, { scope: 'dashboard' });
    const session = await signIn(gateway.url, key.key);
    expect((await withSession(gateway.url, session, '/webhook-endpoints', { csrf: false })).status).toBe(200);
    const replay = await withSession(gateway.url, session, '/webhook-endpoints/we_1/deliveries/del_1/replay', { method: 'POST', body: {} });
    expect(replay.status).toBe(201);
    expect(echoed(replay).auth.scopes).toEqual(['merchant']);
    expectProblem(
      await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body: { url: 'https://x.example' } }),
      403,
      'insufficient_scope',
    );
    expectProblem(await withSession(gateway.url, session, '/webhook-endpoints/we_1/rotate-secret', { method: 'POST', body: {} }), 403, 'insufficient_scope');
    expectProblem(await withSession(gateway.url, session, '/tokens', { method: 'POST', body: {} }), 403, 'insufficient_scope');
    expectProblem(await withSession(gateway.url, session, '/admin/merchants', { csrf: false }), 403, 'insufficient_scope');
    expectProblem(await withSession(gateway.url, session, `/admin/merchants/${merchant.id}/api-keys`, { method: 'POST', body: {} }), 403, 'insufficient_scope');
    // The same key in X-API-Key is held to the same rules.
    expectProblem(
      await call(gateway.url, '/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key.key, 'content-type': 'application/json' }, body: '{}' }),
      403,
      'insufficient_scope',
    );
  });

  it("when an operator session calls a merchant route, then 403 insufficient_scope; the admin API answers it as the operator's key would", async () => {
    const operator = await signIn(gateway.url, ADMIN_KEY);
    expectProblem(await withSession(gateway.url, operator, '/events', { csrf: false }), 403, 'insufficient_scope');
    const listed = await withSession(gateway.url, operator, '/admin/merchants', { csrf: false });
    expect(listed.status).toBe(200);
    expectProblem(
      await withSession(gateway.url, operator, '/admin/merchants', { method: 'POST', body: { name: 'No Token' }, csrf: false }),
      403,
      'csrf_token_invalid',
    );
    const created = await withSession(gateway.url, operator, '/admin/merchants', { method: 'POST', body: { name: 'Made In The Dashboard' } });
    expect(created.status).toBe(201);
  });
});

describe('service health for the operators', () => {
  it('when an operator session reads /admin/health, then every component is named with its state: the payment orchestrator, down in these tests, is unavailable', async () => {
    const operator = await signIn(gateway.url, ADMIN_KEY);
    const health = await withSession(gateway.url, operator, '/admin/health', { csrf: false });
    expectDocumented('get', '/admin/health', health);
    expect(health.json.status).toBe('degraded');
    const byName = Object.fromEntries((health.json.components as Array<{ name: string; status: string }>).map((c) => [c.name, c.status]));
    expect(byName).toEqual({ 'gateway-store': 'ok', vault: 'ok', forwarder: 'ok', importer: 'ok', notifier: 'ok', 'payment-orchestrator': 'unavailable' });
  });
});

describe('the audit of changes made through a session', () => {
  it('when a merchant session and an operator session change something, then each entry names the session (hash prefix), key, role, merchant and mode, and the audit filters by them', async () => {
    const merchant = await createMerchant('Audited Shop');
    const session = await signIn(gateway.url, merchant.secretKey);
    const made = await withSession(gateway.url, session, '/webhook-endpoints', { method: 'POST', body: { url: 'https://audited.example/hooks' } });
    expect(made.status).toBe(201);
    await withSession(gateway.url, session, '/events', { csrf: false });

    const entries = await auditEntries(`&merchant_id=${merchant.id}`, (entry) => entry.path === '/webhook-endpoints');
    const signInEntry = await auditEntries(`&merchant_id=${merchant.id}`, (entry) => entry.path === '/dashboard/session');
    const [change] = entries;
    expect(change).toMatchObject({
      via: 'dashboard_session',
      merchant_id: merchant.id,
      mode: 'test',
      role: 'merchant',
      method: 'POST',
      status: 201,
      operator_id: null,
    });
    expect(change!.session_id_prefix).toMatch(/^[0-9a-f]{12}$/);
    expect(change!.key_id).toEqual(expect.any(String));
    expect(signInEntry[0]).toMatchObject({ method: 'POST', status: 201, session_id_prefix: change!.session_id_prefix });
    // Reads are not changes: the GET /events is not there.
    const ofSession = await adminCall(gateway.url, ADMIN_KEY, `/admin/audit?limit=100&session_id_prefix=${change!.session_id_prefix}`);
    expectDocumented('get', '/admin/audit', ofSession);
    expect((ofSession.json.data as AdminAuditEntry[]).map((entry) => `${entry.method} ${entry.path}`).sort()).toEqual([
      'POST /dashboard/session',
      'POST /webhook-endpoints',
    ]);

    const operator = await signIn(gateway.url, ADMIN_KEY);
    await withSession(gateway.url, operator, '/admin/merchants', { method: 'POST', body: { name: 'Audited By Session' } });
    const [operatorEntry] = await auditEntries('&via=dashboard_session&role=operator', (entry) => entry.path === '/admin/merchants' && entry.method === 'POST');
    expect(operatorEntry).toMatchObject({ via: 'dashboard_session', role: 'operator', operator_name: 'bootstrap', merchant_id: null, status: 201 });
    expectProblem(await adminCall(gateway.url, ADMIN_KEY, '/admin/audit?session_id_prefix=nothex'), 422, 'validation_failed');
  });
});

describe('session expiry', () => {
  let clocked: RunningGateway;
  let clockedStore: SqliteDocumentStore;
  const clock = new ManualClock('2026-11-26T10:00:00.000Z');

  beforeAll(async () => {
    clockedStore = await SqliteDocumentStore.open(join(dir, 'clocked.db'));
    clocked = await startGateway(upstreams, clockedStore, { DASHBOARD_SESSION_IDLE_SECONDS: '60', DASHBOARD_SESSION_MAX_SECONDS: '300' }, { clock });
  });

  afterAll(async () => {
    await clocked.close();
    await clockedStore.close();
  });

  const freshSession = async () => {
    const created = await adminCall(clocked.url, ADMIN_KEY, '/admin/merchants', 'POST', { name: `Clocked ${Math.random()}` });
    return signIn(clocked.url, created.json.api_key as string);
  };

  it('when a session is not used for DASHBOARD_SESSION_IDLE_SECONDS, then it has ended; each request restarts the idle time', async () => {
    const session = await freshSession();
    clock.advance(59_000);
    const used = await withSession(clocked.url, session, '/dashboard/session', { csrf: false });
    expect(used.status).toBe(200);
    expect(used.json.idle_expires_at).toBe(new Date(clock.now().getTime() + 60_000).toISOString());
    clock.advance(59_000);
    expect((await withSession(clocked.url, session, '/events', { csrf: false })).status).toBe(200);
    clock.advance(60_000);
    expectProblem(await withSession(clocked.url, session, '/events', { csrf: false }), 401, 'session_expired');
  });

  it('when DASHBOARD_SESSION_MAX_SECONDS have passed since sign-in, then the session has ended however busy it was', async () => {
    const session = await freshSession();
    expect(session.signIn.headers.get('set-cookie')).toContain('Max-Age=300;');
    for (const step of [50, 50, 50, 50, 50, 49]) {
      clock.advance(step * 1000);
      expect((await withSession(clocked.url, session, '/events', { csrf: false })).status).toBe(200);
    }
    clock.advance(1000);
    expectProblem(await withSession(clocked.url, session, '/events', { csrf: false }), 401, 'session_expired');
  });
});

describe("the merchant's own keys (/api-keys)", () => {
  it('when a secret key issues a dashboard key, then the key is of its mode, shown once, listed by prefix, opens a session, and a revocation ends it', async () => {
    const merchant = await createMerchant('Key Keeper');
    const asMerchant = (path: string, method = 'GET', body?: unknown) =>
      call(gateway.url, path, {
        method,
        headers: { 'x-api-key': merchant.secretKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const issued = await asMerchant('/api-keys', 'POST', { label: 'support desk' });
    expect(issued.status).toBe(201);
    expectDocumented('post', '/api-keys', issued);
    expect(issued.json).toMatchObject({ merchant_id: merchant.id, mode: 'test', scopes: ['dashboard'], label: 'support desk', revoked_at: null });
    const dashboardKey = issued.json.api_key as string;

    const listed = await asMerchant('/api-keys');
    expectDocumented('get', '/api-keys', listed);
    expect((listed.json.data as Array<{ id: string }>).map((key) => key.id)).toContain(issued.json.id);
    expect(listed.text).not.toContain(dashboardKey);

    const session = await signIn(gateway.url, dashboardKey);
    expect(session.signIn.json.role).toBe('dashboard');
    expect((await withSession(gateway.url, session, '/api-keys', { csrf: false })).status).toBe(200);
    expectProblem(await withSession(gateway.url, session, '/api-keys', { method: 'POST', body: {} }), 403, 'insufficient_scope');

    const revoked = await asMerchant(`/api-keys/${issued.json.id as string}`, 'DELETE');
    expectDocumented('delete', '/api-keys/{key_id}', revoked);
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    expectProblem(await withSession(gateway.url, session, '/api-keys', { csrf: false }), 401, 'session_expired');
    expectProblem(await asMerchant(`/api-keys/${issued.json.id as string}`, 'DELETE'), 409, 'api_key_revoked');
  });

  it("when a merchant lists or deletes keys, then it sees only its own mode's, and never deletes the key that signs the request", async () => {
    const merchant = await createMerchant('Two Mode Keys');
    const live = await issueKey(merchant.id, { mode: 'live', scope: 'dashboard', label: 'live support' });
    const testKeys = await call(gateway.url, '/api-keys', { headers: { 'x-api-key': merchant.secretKey } });
    expect((testKeys.json.data as Array<{ mode: string }>).map((key) => key.mode)).toEqual(['test']);
    expectProblem(
      await call(gateway.url, `/api-keys/${live.id}`, { method: 'DELETE', headers: { 'x-api-key': merchant.secretKey } }),
      404,
      'api_key_not_found',
    );
    const own = (testKeys.json.data as Array<{ id: string }>)[0]!.id;
    expectProblem(await call(gateway.url, `/api-keys/${own}`, { method: 'DELETE', headers: { 'x-api-key': merchant.secretKey } }), 409, 'api_key_in_use');
    const other = await createMerchant('Other Keys');
    expectProblem(await call(gateway.url, `/api-keys/${live.id}`, { method: 'DELETE', headers: { 'x-api-key': other.secretKey } }), 404, 'api_key_not_found');
  });

  it('when a secret key creates another secret key, then the new key calls the merchant API, and deleting the first with the second stops it at once; both changes are audited via api_key', async () => {
    const merchant = await createMerchant('Secret Keeper');
    const asKey = (key: string, path: string, method = 'GET', body?: unknown) =>
      call(gateway.url, path, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await asKey(merchant.secretKey, '/api-keys', 'POST', { scope: 'merchant', label: 'shop backend' });
    expectDocumented('post', '/api-keys', created);
    expect(created.json).toMatchObject({ scopes: ['merchant'], mode: 'test', label: 'shop backend', rolled_from: null });
    const second = created.json.api_key as string;
    expect((await asKey(second, '/events')).status).toBe(200);
    const first = (await asKey(second, '/api-keys')).json.data as Array<{ id: string; label: string | null }>;
    const original = first.find((key) => key.id !== created.json.id)!;
    const deleted = await asKey(second, `/api-keys/${original.id}`, 'DELETE');
    expectDocumented('delete', '/api-keys/{key_id}', deleted);
    expectProblem(await asKey(merchant.secretKey, '/events'), 401, 'invalid_api_key');
    const entries = await auditEntries(`&merchant_id=${merchant.id}&via=api_key`, (e) => e.path.startsWith('/api-keys'));
    expect(entries.map((e) => [e.method, e.status, e.role])).toEqual(
      expect.arrayContaining([
        ['POST', 201, 'merchant'],
        ['DELETE', 200, 'merchant'],
      ]),
    );
  });

  it('when a key is rolled with an expiry, then the new key works at once and the old one until its expiry; rolled with none, the old one stops at once', async () => {
    const merchant = await createMerchant('Rolling Keys');
    const asKey = (key: string, path: string, method = 'GET', body?: unknown) =>
      call(gateway.url, path, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const [original] = (await asKey(merchant.secretKey, '/api-keys')).json.data as Array<{ id: string }>;
    const before = Date.now();
    const rolled = await asKey(merchant.secretKey, `/api-keys/${original!.id}/roll`, 'POST', { expires_in_seconds: 3600 });
    expectDocumented('post', '/api-keys/{key_id}/roll', rolled);
    expect(rolled.json).toMatchObject({ rolled_from: original!.id, scopes: ['merchant'], previous: { id: original!.id, revoked_at: null } });
    const expiresAt = Date.parse(String((rolled.json.previous as { expires_at: string }).expires_at));
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    const next = rolled.json.api_key as string;
    expect((await asKey(next, '/events')).status).toBe(200);
    expect((await asKey(merchant.secretKey, '/events')).status).toBe(200);

    const again = await asKey(next, `/api-keys/${rolled.json.id as string}/roll`, 'POST', {});
    expect(again.status).toBe(201);
    expectProblem(await asKey(next, '/events'), 401, 'invalid_api_key');
    expect((await asKey(again.json.api_key as string, '/events')).status).toBe(200);
    expectProblem(await asKey(again.json.api_key as string, `/api-keys/${rolled.json.id as string}/roll`, 'POST', {}), 409, 'api_key_not_rollable');
    expectProblem(
      await asKey(again.json.api_key as string, `/api-keys/${original!.id}/roll`, 'POST', { expires_in_seconds: 604_801 }),
      422,
      'validation_failed',
    );
  });

  it('when a merchant session issues a key, then the change is audited with the session', async () => {
    const merchant = await createMerchant('Audited Keys');
    const session = await signIn(gateway.url, merchant.secretKey);
    const issued = await withSession(gateway.url, session, '/api-keys', { method: 'POST', body: { label: 'from the dashboard' } });
    expect(issued.status).toBe(201);
    const [entry] = await auditEntries(`&merchant_id=${merchant.id}`, (e) => e.path === '/api-keys');
    expect(entry).toMatchObject({ via: 'dashboard_session', role: 'merchant', method: 'POST', status: 201, target_ids: [issued.json.id] });
  });
});

describe('sign-ins per address', () => {
  it('when an address signs in more often in a minute than DASHBOARD_SIGN_INS_PER_MINUTE, then it answers 429 too_many_sign_ins with Retry-After, and a minute later it may again', async () => {
    const clock = new ManualClock('2026-11-26T11:00:00.000Z');
    const limitedStore = await SqliteDocumentStore.open(join(dir, 'limited.db'));
    const limited = await startGateway(upstreams, limitedStore, { DASHBOARD_SIGN_INS_PER_MINUTE: '2' }, { clock });
    try {
      const created = await adminCall(limited.url, ADMIN_KEY, '/admin/merchants', 'POST', { name: 'Limited Shop' });
      const attempt = (apiKey: string) =>
        call(limited.url, '/dashboard/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }) });
      expectProblem(await attempt('sk_test_0000000000000000000000000000000'), 401, 'invalid_api_key');
      expect((await attempt(created.json.api_key as string)).status).toBe(201);
      const refused = await attempt(created.json.api_key as string);
      expectProblem(refused, 429, 'too_many_sign_ins');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('set-cookie')).toBeNull();
      clock.advance(60_000);
      expect((await attempt(created.json.api_key as string)).status).toBe(201);
    } finally {
      await limited.close();
      await limitedStore.close();
    }
  });
});

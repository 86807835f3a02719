import { InternalTokenSigner, generateInternalKeyPair } from '@vaultline/auth';
import { ADYEN_BODY } from './support/forward-scenario';
import { capturedLogLines } from './support/log-capture';
import { ADMIN_API_KEY, startSystem, type RunningSystem } from './support/merchant-api';

// Every service's logger writes into the capture: the audit of refusals is read from the real log lines.
jest.mock('../libs/logger/src/create-logger', () =>
  jest.requireActual<typeof import('./support/log-capture')>('./support/log-capture').capturingLoggerModule(),
);

/**
 * Authentication (issue 17, "Hostile input"): missing, malformed, unknown, revoked and other-mode API
 * keys at the gateway, and internal tokens forged, replayed to another audience or with the wrong
 * scope at a service's own listener — all refused, and every refusal audited: a warn line "access
 * refused" with the request id and the precise reason the answer does not give (PCI DSS 10.2.1.4, failed
 * access attempts recorded), plus the stored admin audit for the operator API. Expired internal tokens
 * and the other refusals of libs/http are in libs/http/src/create-service-http.test.ts.
 *
 * "Other-mode" is what a key's mode decides: a test key never reaches a live PSP endpoint and a live key
 * never a test one (the forwarder's destination modes), and a live key may not move the test clock.
 */
const LIVE_ADYEN = 'https://acme-checkout-live.adyenpayments.com/checkout/v69/payments';
const TEST_ADYEN = 'https://checkout-test.adyen.com/v69/payments';

interface Refusal {
  what: string;
  send: (ctx: Context, requestId: string) => Promise<Response>;
  status: number;
  code: string;
  /** What the audit line must also say (the reason the answer hides). */
  audit?: Record<string, unknown>;
}

interface Context {
  baseUrl: string;
  vaultUrl: string;
  testKey: string;
  liveKey: string;
  revokedKey: string;
  revokedKeyId: string;
  gatewaySigner: InternalTokenSigner;
}

const merchantCall = (ctx: Context, requestId: string, headers: Record<string, string>, path = '/tokens', init: RequestInit = {}) =>
  fetch(`${ctx.baseUrl}${path}`, { ...init, headers: { 'x-request-id': requestId, ...headers } });
const forwardTo = (ctx: Context, requestId: string, key: string, destination: string) =>
  merchantCall(
    ctx,
    requestId,
    { 'X-API-Key': key, 'Content-Type': 'application/json', 'X-SERVICE-TOKEN': '0190f2a4-0000-7000-8000-000000000001', 'X-DESTINATION-URL': destination },
    '/forward',
    { method: 'POST', body: JSON.stringify(ADYEN_BODY) },
  );
const vaultCall = (ctx: Context, requestId: string, token: string) =>
  fetch(`${ctx.vaultUrl}/tokens`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId } });

const refusals: Refusal[] = [
  { what: 'no API key', send: (ctx, id) => merchantCall(ctx, id, {}), status: 401, code: 'missing_api_key' },
  {
    what: 'a malformed API key',
    send: (ctx, id) => merchantCall(ctx, id, { 'X-API-Key': 'not-an-api-key' }),
    status: 401,
    code: 'invalid_api_key',
    audit: { reason: 'malformed' },
  },
  {
    what: 'an unknown API key',
    send: (ctx, id) => merchantCall(ctx, id, { 'X-API-Key': `sk_test_${'0'.repeat(32)}` }),
    status: 401,
    code: 'invalid_api_key',
    audit: { reason: 'unknown' },
  },
  {
    what: 'a revoked API key',
    send: (ctx, id) => merchantCall(ctx, id, { 'X-API-Key': ctx.revokedKey }),
    status: 401,
    code: 'invalid_api_key',
    audit: { reason: 'revoked' },
  },
  {
    what: 'a test key forwarding to a live PSP endpoint',
    send: (ctx, id) => forwardTo(ctx, id, ctx.testKey, LIVE_ADYEN),
    status: 403,
    code: 'destination_not_allowed_in_test_mode',
  },
  {
    what: 'a live key forwarding to a test PSP endpoint',
    send: (ctx, id) => forwardTo(ctx, id, ctx.liveKey, TEST_ADYEN),
    status: 403,
    code: 'destination_not_allowed_in_live_mode',
  },
  {
    what: 'a live key moving the test clock',
    send: (ctx, id) => merchantCall(ctx, id, { 'X-API-Key': ctx.liveKey, 'X-Test-Now': '2030-01-01T00:00:00Z' }),
    status: 422,
    code: 'test_clock_not_allowed',
  },
  {
    what: 'an internal token forged with a key the vault does not trust',
    send: (ctx, id) =>
      vaultCall(
        ctx,
        id,
        new InternalTokenSigner('gateway', generateInternalKeyPair().privateKeyPem).sign('vault', {
          merchantId: 'm_forged',
          scopes: ['merchant', 'card_data'],
        }),
      ),
    status: 401,
    code: 'invalid_internal_token',
    audit: { reason: expect.stringContaining('invalid signature') },
  },
  {
    what: "the gateway's token for the notifier, replayed to the vault",
    send: (ctx, id) => vaultCall(ctx, id, ctx.gatewaySigner.sign('notifier', { merchantId: 'm_replayed', scopes: ['merchant'] })),
    status: 401,
    code: 'invalid_internal_token',
    audit: { reason: expect.stringContaining('audience') },
  },
  {
    what: "the gateway's token without the merchant scope",
    send: (ctx, id) => vaultCall(ctx, id, ctx.gatewaySigner.sign('vault', { merchantId: 'm_scoped', scopes: ['public'] })),
    status: 403,
    code: 'insufficient_scope',
  },
];

describe('authentication refusals, each audited', () => {
  let running: RunningSystem;
  let ctx: Context;

  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const response = await fetch(`${running.system.baseUrl}${path}`, {
      method,
      headers: { 'X-Admin-Key': ADMIN_API_KEY, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await response.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> };
  };

  beforeAll(async () => {
    running = await startSystem({ LOG_LEVEL: 'warn' }, 'vaultline-auth-');
    const merchant = await admin('/admin/merchants', 'POST', { name: 'Auth shop', card_data_access: true });
    const live = await admin(`/admin/merchants/${String(merchant.id)}/api-keys`, 'POST', { mode: 'live' });
    const revoked = await admin(`/admin/merchants/${String(merchant.id)}/api-keys`, 'POST', { mode: 'test' });
    await admin(`/admin/merchants/${String(merchant.id)}/api-keys/${String(revoked.id)}`, 'DELETE');
    const vault = running.system.services.vault;
    const gateway = running.system.services.gateway;
    if (!vault || !gateway) throw new Error('the vault and the gateway run on the main thread by default');
    ctx = {
      baseUrl: running.system.baseUrl,
      vaultUrl: vault.url,
      testKey: String(merchant.api_key),
      liveKey: String(live.api_key),
      revokedKey: String(revoked.api_key),
      revokedKeyId: String(revoked.id),
      gatewaySigner: gateway.runtime.signer,
    };
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('when a request carries a refused credential, then it gets the problem and a warn line "access refused" records it', async () => {
    const results = [];
    for (const [n, refusal] of refusals.entries()) {
      const requestId = `auth-refusal-${n}`;
      const response = await refusal.send(ctx, requestId);
      const body = (await response.json()) as { code?: string };
      const audited = capturedLogLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.request_id === requestId && line.msg === 'access refused');
      results.push({ what: refusal.what, status: response.status, code: body.code, audited: audited.length > 0 });
      expect({ what: refusal.what, audit: audited[0] }).toEqual({
        what: refusal.what,
        audit: expect.objectContaining({ level: 40, status: refusal.status, code: refusal.code, ...refusal.audit }),
      });
    }

    console.log(`authentication: ${results.length} refusals tried, ${results.filter((r) => r.audited).length} audited`);
    expect(results).toEqual(refusals.map((r) => ({ what: r.what, status: r.status, code: r.code, audited: true })));
  });

  it('when a revoked key is refused, then its audit line names the key id, and the answer does not', async () => {
    const response = await merchantCall(ctx, 'auth-revoked-key-id', { 'X-API-Key': ctx.revokedKey });
    const text = await response.text();

    expect(text).not.toContain(ctx.revokedKeyId);
    const line = capturedLogLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.request_id === 'auth-revoked-key-id' && l.msg === 'access refused');
    expect(line).toMatchObject({ reason: 'revoked', key_id: ctx.revokedKeyId });
  });

  // Its audit entry is gathered with the address's other refusals of the minute and written once the minute ended (gateway-admin-edge.test.ts).
  it('when the operator API gets a wrong admin key, then it is refused and logged, without an audit row of its own', async () => {
    const response = await fetch(`${ctx.baseUrl}/admin/merchants`, {
      headers: { 'X-Admin-Key': 'admin_wrong_0123456789abcdef0123456789', 'x-request-id': 'auth-wrong-admin' },
    });

    expect(response.status).toBe(401);
    expect(capturedLogLines.some((l) => l.includes('"auth-wrong-admin"') && l.includes('access refused'))).toBe(true);
    const audit = await admin('/admin/audit');
    expect(audit.data).not.toEqual(expect.arrayContaining([expect.objectContaining({ request_id: 'auth-wrong-admin' })]));
  });
});

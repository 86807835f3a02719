import { MemoryDocumentStore } from '@vaultline/store';
import { InternalTokenSigner } from '@vaultline/auth';
import type { EchoBody } from './support/echo-upstream';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { adminCall, call, expectDocumented, expectProblem } from './support/http-call';

let upstreams: Upstreams;
let gateway: RunningGateway;

beforeAll(async () => {
  upstreams = await startUpstreams();
  gateway = await startGateway(upstreams, new MemoryDocumentStore());
});

afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});

const admin = (path: string, method = 'GET', body?: unknown) => adminCall(gateway.url, ADMIN_KEY, path, method, body);

describe('the admin API', () => {
  it('when a merchant is created, then its key is shown once, works, is listed by prefix only and stops working once revoked', async () => {
    const created = await admin('/admin/merchants', 'POST', { name: 'Shop One', card_data_access: true });
    expect(created.status).toBe(201);
    expectDocumented('post', '/admin/merchants', created);
    const apiKey = created.json.api_key as string;
    const merchantId = created.json.id as string;
    expect(apiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);

    const fetched = await admin(`/admin/merchants/${merchantId}`);
    expectDocumented('get', '/admin/merchants/{merchant_id}', fetched);
    expect(fetched.text).not.toContain(apiKey);

    const used = await call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey } });
    expect((used.json as unknown as EchoBody).auth).toMatchObject({ merchantId, scopes: ['merchant', 'card_data'] });

    const keys = await admin(`/admin/merchants/${merchantId}/api-keys`);
    expectDocumented('get', '/admin/merchants/{merchant_id}/api-keys', keys);
    const [key] = keys.json.data as Array<{ id: string; prefix: string }>;
    expect(key?.prefix).toBe(apiKey.slice(0, 12));
    expect(keys.text).not.toContain(apiKey);
    expect(keys.text).not.toContain('key_hash');

    const revoked = await admin(`/admin/merchants/${merchantId}/api-keys/${key?.id}`, 'DELETE');
    expectDocumented('delete', '/admin/merchants/{merchant_id}/api-keys/{key_id}', revoked);
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    const refused = await call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey } });
    expectProblem(refused, 401, 'invalid_api_key');
    expect(refused.json.detail).toBe('The API key is not valid.');
    expectProblem(await admin(`/admin/merchants/${merchantId}/api-keys/${key?.id}`, 'DELETE'), 409, 'api_key_revoked');
  });

  it('when another key is issued, then both keys work independently and the merchant without card data access gets only merchant scope', async () => {
    const created = await admin('/admin/merchants', 'POST', { name: 'Shop Two' });
    const merchantId = created.json.id as string;
    const second = await admin(`/admin/merchants/${merchantId}/api-keys`, 'POST', { mode: 'live', label: 'backend' });
    expectDocumented('post', '/admin/merchants/{merchant_id}/api-keys', second);
    expect(second.json.api_key).toMatch(/^sk_live_/);
    for (const key of [created.json.api_key as string, second.json.api_key as string]) {
      const echo = (await call(gateway.url, '/tokens', { headers: { 'x-api-key': key } })).json as unknown as EchoBody;
      expect(echo.auth).toMatchObject({ merchantId, scopes: ['merchant'] });
    }
  });

  it('when merchants are listed, then pages follow the cursor', async () => {
    for (const name of ['P1', 'P2', 'P3']) await admin('/admin/merchants', 'POST', { name });
    const first = await admin('/admin/merchants?limit=2');
    expectDocumented('get', '/admin/merchants', first);
    expect(first.json.has_more).toBe(true);
    const second = await admin(`/admin/merchants?limit=2&starting_after=${first.json.next_cursor as string}`);
    const ids = [...(first.json.data as Array<{ id: string }>), ...(second.json.data as Array<{ id: string }>)].map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when input is invalid or the merchant unknown, then documented problems come back', async () => {
    const invalid = await admin('/admin/merchants', 'POST', { name: '' });
    expectProblem(invalid, 422, 'validation_failed');
    expect(invalid.json.field).toBe('name');
    expectDocumented('post', '/admin/merchants', invalid);
    const missing = await admin('/admin/merchants/0190a6b2-aaaa-7bbb-8ccc-123456789abc');
    expectProblem(missing, 404, 'merchant_not_found');
    expectDocumented('get', '/admin/merchants/{merchant_id}', missing);
    expectProblem(await admin('/admin/merchants?limit=500'), 422, 'validation_failed');
  });

  it('when the admin key is missing or wrong, then it answers 401', async () => {
    const missing = await call(gateway.url, '/admin/merchants');
    expectProblem(missing, 401, 'missing_admin_key');
    expectDocumented('get', '/admin/merchants', missing);
    expectProblem(await call(gateway.url, '/admin/merchants', { headers: { 'x-admin-key': `${ADMIN_KEY}x` } }), 401, 'invalid_admin_key');
  });

  it('when an admin path names a service, then that service receives /admin/<rest> with scope admin as the system', async () => {
    const result = await call(gateway.url, '/admin/vault/kek/rotate?dry=1', {
      method: 'POST',
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    const echo = result.json as unknown as EchoBody;
    expect(echo.service).toBe('vault');
    expect(echo.url).toBe('/admin/kek/rotate?dry=1');
    expect(echo.auth).toMatchObject({ merchantId: '__system__', scopes: ['admin'] });
    expect(echo.headers['x-admin-key']).toBeUndefined();
    expectProblem(await call(gateway.url, '/admin/unknown/x', { headers: { 'x-admin-key': ADMIN_KEY } }), 404, 'route_not_found');
  });

  it('when ADMIN_API_KEY is not configured, then every admin path answers 404', async () => {
    const other = await startGateway(upstreams, new MemoryDocumentStore(), { ADMIN_API_KEY: '' });
    try {
      expectProblem(await call(other.url, '/admin/merchants', { headers: { 'x-admin-key': ADMIN_KEY } }), 404, 'route_not_found');
    } finally {
      await other.close();
    }
  });
});

describe('the internal key API for import jobs', () => {
  const importer = () => new InternalTokenSigner('importer', upstreams.importerKeys.privateKeyPem);
  const mint = (merchantId: string, body: Record<string, unknown>, signer = importer(), scopes = ['api_keys:mint']) =>
    call(gateway.internalUrl, '/internal/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${signer.sign('gateway', { merchantId, scopes })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_id: merchantId, scopes: ['cde_import'], label: 'import job 1', mode: 'test', ...body }),
    });

  it('when the importer mints a cde_import key, then it may POST /cde-import and nothing else, until revoked', async () => {
    const merchantId = (await admin('/admin/merchants', 'POST', { name: 'Importing shop' })).json.id as string;
    const minted = await mint(merchantId, {});
    expect(minted.status).toBe(201);
    const importKey = minted.json.api_key as string;

    const imported = await call(gateway.url, '/cde-import', {
      method: 'POST',
      headers: { 'x-api-key': importKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect((imported.json as unknown as EchoBody).auth).toMatchObject({ merchantId, scopes: ['cde_import'] });
    expectProblem(await call(gateway.url, '/tokens', { headers: { 'x-api-key': importKey } }), 403, 'insufficient_scope');
    expectProblem(await call(gateway.url, '/cde-import', { headers: { 'x-api-key': importKey } }), 403, 'insufficient_scope');

    const deleted = await call(gateway.internalUrl, `/internal/api-keys/${minted.json.id as string}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${importer().sign('gateway', { merchantId, scopes: ['api_keys:mint'] })}` },
    });
    expect(deleted.status).toBe(204);
    expectProblem(
      await call(gateway.url, '/cde-import', { method: 'POST', headers: { 'x-api-key': importKey, 'content-type': 'application/json' }, body: '{}' }),
      401,
      'invalid_api_key',
    );
  });

  it('when an import key has expired, then it is refused', async () => {
    const merchantId = (await admin('/admin/merchants', 'POST', { name: 'Expired shop' })).json.id as string;
    const minted = await mint(merchantId, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const refused = await call(gateway.url, '/cde-import', {
      method: 'POST',
      headers: { 'x-api-key': minted.json.api_key as string, 'content-type': 'application/json' },
      body: '{}',
    });
    expectProblem(refused, 401, 'invalid_api_key');
    expect(refused.json.detail).toBe('The API key is not valid.');
  });

  it('when the caller is not the importer, lacks the scope, sends no token or asks for other scopes, then minting is refused', async () => {
    const merchantId = (await admin('/admin/merchants', 'POST', { name: 'Guarded shop' })).json.id as string;
    const gatewaySigner = new InternalTokenSigner('gateway', upstreams.gatewayKeys.privateKeyPem);
    expectProblem(await mint(merchantId, {}, gatewaySigner), 403, 'forbidden_issuer');
    expectProblem(await mint(merchantId, {}, importer(), ['merchant']), 403, 'insufficient_scope');
    expectProblem(await mint(merchantId, { scopes: ['merchant'] }), 422, 'validation_failed');
    const anonymous = await call(gateway.internalUrl, '/internal/api-keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expectProblem(anonymous, 401, 'invalid_internal_token');
  });
});

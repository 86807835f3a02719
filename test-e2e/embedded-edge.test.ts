import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';

/** The merchant edge of the whole embedded system, as a newcomer meets it. */
describe('embedded profile: the merchant edge', () => {
  const apiKey = 'sk_test_embedded_edge_0123456789abcdef';
  let dataDir: string;
  let system: EmbeddedSystem;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-edge-'));
    system = await startEmbedded({ dataDir, port: 0, env: { BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, init: RequestInit = {}) => fetch(`${system.baseUrl}${path}`, init);
  /** PUBLIC_BASE_URL is not set: it defaults to http://localhost:{port}, which links and problem types use. */
  const publicBaseUrl = () => system.baseUrl.replace('127.0.0.1', 'localhost');

  it('when the bootstrap key is used, then the merchant API answers at once', async () => {
    const response = await call('/tokens', { headers: { 'X-API-Key': apiKey } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'list', data: [] });
  });

  it('when no API key is sent, then the answer is 401 problem+json with a request id', async () => {
    const response = await call('/tokens');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 401, code: 'missing_api_key' });
    expect(typeof problem.request_id).toBe('string');
  });

  it('when the route is unknown, then the answer is 404 problem+json', async () => {
    const response = await call('/no-such-thing', { headers: { 'X-API-Key': apiKey } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('when a payment is requested without its source, then the orchestrator answers 422 problem+json naming the field', async () => {
    const response = await call('/payments/one-off', {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 1000, currency_code: 'EUR' }),
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: 'validation_failed', field: 'source' });
    // The type is the entry of the code on this service's own errors page, and that entry exists.
    expect(problem.type).toBe(`${publicBaseUrl()}/docs/errors#validation_failed`);
    expect(await (await call('/docs/errors')).text()).toContain('id="validation_failed"');
  });

  it('when the same payment is sent as a form (curl -d without a Content-Type), then the answer is 415 naming application/json, not a misleading 422', async () => {
    const response = await call('/payments/one-off', {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ amount: 1000, currency_code: 'EUR', source: { type: 'vaultline' } }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      code: 'unsupported_media_type',
      field: 'Content-Type',
      type: `${publicBaseUrl()}/docs/errors#unsupported_media_type`,
    });
  });

  it('when a capture comes with no body at all, then it reaches the orchestrator (the body is optional) and is answered for the payment', async () => {
    const response = await call('/payments/019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b99/capture', { method: 'POST', headers: { 'X-API-Key': apiKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'payment_not_found' });
  });

  it('when / is called without a key, then it answers a JSON index of the documentation', async () => {
    const response = await call('/');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ links: { docs: `${publicBaseUrl()}/docs`, openapi: `${publicBaseUrl()}/openapi.json` } });
    expect((await call('/favicon.ico')).status).toBe(204);
  });

  it('serves the OpenAPI document and a readable page of it', async () => {
    const document = (await (await call('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\.1/);
    for (const path of ['/tokens', '/forward', '/tokens/imports', '/webhook-endpoints', '/cde-import']) expect(Object.keys(document.paths)).toContain(path);
    const page = await call('/docs');
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('answers health and readiness on the gateway', async () => {
    expect((await call('/health')).status).toBe(200);
    expect((await call('/ready')).status).toBe(200);
  });

  it('when the body is not JSON, then the answer is 400 malformed_json', async () => {
    const response = await call('/tokens', { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: '{"card":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'malformed_json' });
  });
});

import { MemoryDocumentStore } from '@vaultline/store';
import { InternalTokenSigner } from '@vaultline/auth';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EchoBody } from './support/echo-upstream';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { call, expectProblem, rawPathCall } from './support/http-call';

describe('the merchant edge', () => {
  let upstreams: Upstreams;
  let gateway: RunningGateway;
  let apiKey: string;
  let merchantId: string;

  beforeAll(async () => {
    upstreams = await startUpstreams();
    gateway = await startGateway(upstreams, new MemoryDocumentStore());
    const created = await call(gateway.url, '/admin/merchants', {
      method: 'POST',
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Edge shop' }),
    });
    apiKey = created.json.api_key as string;
    merchantId = created.json.id as string;
  });

  afterAll(async () => {
    await gateway.close();
    await upstreams.close();
  });

  const withKey = (headers: Record<string, string> = {}) => ({ 'x-api-key': apiKey, ...headers });

  describe('the merchant edge', () => {
    it('when no API key is sent, then it answers 401 missing_api_key', async () => {
      expectProblem(await call(gateway.url, '/tokens'), 401, 'missing_api_key');
    });

    it('when an unknown or malformed key is sent, then it answers 401 invalid_api_key', async () => {
      expectProblem(await call(gateway.url, '/tokens', { headers: { 'x-api-key': 'sk_test_0000000000000000000000000000000' } }), 401, 'invalid_api_key');
      expectProblem(await call(gateway.url, '/tokens', { headers: { 'x-api-key': 'hello' } }), 401, 'invalid_api_key');
    });

    it('when a valid key is sent, then the vault receives a valid internal JWT for the merchant, its mode and key, with the path, query and raw body unchanged', async () => {
      const keys = await call(gateway.url, `/admin/merchants/${merchantId}/api-keys`, { headers: { 'x-admin-key': ADMIN_KEY } });
      const keyId = (keys.json.data as Array<{ id: string }>)[0]!.id;
      const rawBody = '{ "card":{"number":"4242424242424242"} ,  "z": 1 }';
      const result = await call(gateway.url, '/tokens?expand=card&x=1', {
        method: 'POST',
        headers: withKey({ 'content-type': 'application/json', 'idempotency-key': 'idem-1', 'x-request-id': 'req-edge-1', 'x-admin-key': 'nope' }),
        body: rawBody,
      });
      expect(result.status).toBe(201);
      expect(result.headers.get('x-request-id')).toBe('req-edge-1');
      expect(result.headers.get('idempotent-replayed')).toBeNull();
      const echo = result.json as unknown as EchoBody;
      expect(echo.service).toBe('vault');
      expect(echo.auth).toEqual({
        issuer: 'gateway',
        merchantId,
        scopes: ['merchant'],
        requestId: 'req-edge-1',
        mode: 'test',
        keyId,
        merchantName: 'Edge shop',
        clientAddress: '127.0.0.1',
        trace: null,
      });
      expect(echo.url).toBe('/tokens?expand=card&x=1');
      expect(echo.raw).toBe(rawBody);
      expect(echo.headers['idempotency-key']).toBe('idem-1');
      expect(echo.headers['x-request-id']).toBe('req-edge-1');
      expect(echo.headers['x-api-key']).toBeUndefined();
      expect(echo.headers['x-admin-key']).toBeUndefined();
      expect(echo.rawHeaderNames).not.toContain('x-api-key');
      expect(echo.rawHeaderNames).not.toContain('x-admin-key');
    });

    it('when a test-mode key sends X-Test-Now, then the service receives the header and the test mode', async () => {
      const result = await call(gateway.url, '/tokens', {
        method: 'POST',
        headers: withKey({ 'content-type': 'application/json', 'x-test-now': '2027-01-15T10:00:00Z' }),
        body: '{}',
      });
      const echo = result.json as unknown as EchoBody;
      expect(echo.auth.mode).toBe('test');
      expect(echo.headers['x-test-now']).toBe('2027-01-15T10:00:00Z');
    });

    it('when a live-mode key sends X-Test-Now, then every route answers 422 test_clock_not_allowed before anything else', async () => {
      const issued = await call(gateway.url, `/admin/merchants/${merchantId}/api-keys`, {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'live' }),
      });
      const liveKey = issued.json.api_key as string;
      expect(liveKey).toMatch(/^sk_live_/);
      for (const path of ['/payments/one-off', '/tokens', '/no-such-route']) {
        const refused = await call(gateway.url, path, {
          method: 'POST',
          headers: { 'x-api-key': liveKey, 'content-type': 'application/json', 'x-test-now': '2027-01-15T10:00:00Z' },
          body: '{}',
        });
        expectProblem(refused, 422, 'test_clock_not_allowed');
      }
      const withoutClock = await call(gateway.url, '/tokens', { headers: { 'x-api-key': liveKey } });
      expect((withoutClock.json as unknown as EchoBody).auth.mode).toBe('live');
    });

    it('when paths are routed, then each prefix reaches its service, /tokens/imports goes to the importer and /flow-matrix, /flows, /processor-accounts, /customers, /payment-methods and /disputes go to the payment orchestrator', async () => {
      const cases: Array<[string, string]> = [
        ['/tokens/imports/abc', 'importer'],
        ['/tokens/abc', 'vault'],
        ['/events?type=token.created', 'notifier'],
        ['/webhook-endpoints', 'notifier'],
        ['/settings/checkout', 'vault'],
      ];
      for (const [path, service] of cases) {
        const result = await call(gateway.url, path, { headers: withKey() });
        expect({ path, service: result.json.service }).toEqual({ path, service });
      }
      // The harness's payment orchestrator is down: the gateway's answer names the service it tried.
      for (const path of [
        '/payments/one-off',
        '/flow-matrix',
        '/flow-matrix/explain',
        '/flows',
        '/flows/my_flow',
        '/processor-accounts',
        '/processor-accounts/abc',
        '/customers',
        '/customers/abc/payment-methods',
        '/payment-methods/abc',
        '/disputes',
        '/disputes/abc',
      ]) {
        const result = await call(gateway.url, path, { headers: withKey() });
        expect({ path, status: result.status, detail: result.json.detail }).toEqual({
          path,
          status: 503,
          detail: expect.stringContaining('payment-orchestrator'),
        });
      }
      expectProblem(await call(gateway.url, '/tokensx', { headers: withKey() }), 404, 'route_not_found');
      expectProblem(await call(gateway.url, '/flowsx', { headers: withKey() }), 404, 'route_not_found');
      // Processors' notifications carry no API key: they reach the orchestrator, which checks their signature.
      const notification = await call(gateway.url, '/processor-notifications/adyen/abc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect([notification.status, notification.json.detail]).toEqual([503, expect.stringContaining('payment-orchestrator')]);
      for (const merchantOnly of [
        '/flow-matrix',
        '/flows',
        '/payments',
        '/processor-accounts',
        '/customers',
        '/payment-methods/abc',
        '/disputes',
        '/settings/checkout',
      ])
        expectProblem(await call(gateway.url, merchantOnly), 401, 'missing_api_key');
    });

    it("when forwarding, then the merchant's Authorization arrives as X-Forward-Authorization and the destination key headers pass through", async () => {
      const result = await call(gateway.url, '/forward', {
        method: 'POST',
        headers: withKey({
          'content-type': 'application/x-www-form-urlencoded',
          authorization: 'Bearer destination-secret',
          'x-service-token': '0190a6b2-aaaa-7bbb-8ccc-123456789abc',
          'x-destination-url': 'https://acquirer.example/v69/payments',
          'x-api-key-name': 'X-Acquirer-Key',
          'x-api-key-value': 'acq-secret',
          'x-api-key-acquirer-name': 'Authorization',
          'x-api-key-acquirer-value': 'Basic abc',
        }),
        body: 'card[number]={{ account_number }}',
      });
      const echo = result.json as unknown as EchoBody;
      expect(echo.service).toBe('forwarder');
      expect(echo.headers['x-forward-authorization']).toBe('Bearer destination-secret');
      expect(String(echo.headers.authorization)).toMatch(/^Bearer ey/);
      expect(echo.headers['x-service-token']).toBe('0190a6b2-aaaa-7bbb-8ccc-123456789abc');
      expect(echo.headers['x-destination-url']).toBe('https://acquirer.example/v69/payments');
      expect(echo.headers['x-api-key-name']).toBe('X-Acquirer-Key');
      expect(echo.headers['x-api-key-value']).toBe('acq-secret');
      expect(echo.headers['x-api-key-acquirer-value']).toBe('Basic abc');
      expect(echo.raw).toBe('card[number]={{ account_number }}');
    });

    it('when a merchant sends its own X-Forward-Authorization to another service, then it is dropped', async () => {
      const echo = (await call(gateway.url, '/tokens', { headers: withKey({ 'x-forward-authorization': 'spoofed', authorization: 'Bearer merchant' }) }))
        .json as unknown as EchoBody;
      expect(echo.headers['x-forward-authorization']).toBeUndefined();
      expect(echo.auth.merchantId).toBe(merchantId);
    });

    it('when the internal health, readiness or key routes are asked on the public port, then they answer 404 as unknown routes', async () => {
      for (const path of ['/internal/health', '/internal/ready']) expectProblem(await call(gateway.url, path), 404, 'route_not_found');
      expectProblem(
        await call(gateway.url, '/internal/api-keys', { method: 'POST', headers: withKey({ 'content-type': 'application/json' }), body: '{}' }),
        404,
        'route_not_found',
      );
    });

    it('when a service is called directly without a JWT or with a JWT for another audience, then it answers 401', async () => {
      expectProblem(await call(upstreams.urls.vault, '/tokens'), 401, 'invalid_internal_token');
      const signer = new InternalTokenSigner('gateway', upstreams.gatewayKeys.privateKeyPem);
      const forForwarder = signer.sign('forwarder', { merchantId, scopes: ['merchant'] });
      expectProblem(await call(upstreams.urls.vault, '/tokens', { headers: { authorization: `Bearer ${forForwarder}` } }), 401, 'invalid_internal_token');
    });

    it('when the public checkout, SDK or session routes are called without a key, then they reach the vault as the public merchant', async () => {
      const page = await call(gateway.url, '/checkout/page');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('checkout');
      const session = (await call(gateway.url, '/sessions/s1/card', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
        .json as unknown as EchoBody;
      expect(session.auth).toMatchObject({ merchantId: '__public__', scopes: ['public'] });
      expect(((await call(gateway.url, '/sdk/v1.js')).json as unknown as EchoBody).service).toBe('vault');
      // The page's favicon and an uploaded logo are public too: a page load asks for no keyed resource.
      const favicon = (await call(gateway.url, '/checkout/assets/favicon.svg')).json as unknown as EchoBody;
      expect([favicon.service, favicon.auth.merchantId]).toEqual(['vault', '__public__']);
      expect(((await call(gateway.url, '/sessions/s1/logo')).json as unknown as EchoBody).auth.merchantId).toBe('__public__');
    });

    it('when the body is over 1 MB, of an unsupported type or malformed JSON, then 413 and 415 come from the edge and 400 from the service', async () => {
      const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
      expectProblem(
        await call(gateway.url, '/tokens', { method: 'POST', headers: withKey({ 'content-type': 'application/json' }), body: big }),
        413,
        'payload_too_large',
      );
      expectProblem(
        await call(gateway.url, '/tokens', { method: 'POST', headers: withKey({ 'content-type': 'text/plain' }), body: 'hi' }),
        415,
        'unsupported_media_type',
      );
      expectProblem(
        await call(gateway.url, '/tokens', { method: 'POST', headers: withKey({ 'content-type': 'application/json' }), body: '{"a":' }),
        400,
        'malformed_json',
      );
    });

    it('when the route is unknown or uses dot segments, then it answers 404 route_not_found', async () => {
      expectProblem(await call(gateway.url, '/nothing-here', { headers: withKey() }), 404, 'route_not_found');
      for (const path of ['/tokens/../admin/x', '/tokens/%2e%2e/admin', '/tokens/a%2Fb', '/checkout/../tokens']) {
        expect({ path, ...(await rawPathCall(gateway.url, path, withKey())) }).toEqual({ path, status: 404, code: 'route_not_found' });
      }
    });

    it('when the upstream is down (still refusing after GATEWAY_UPSTREAM_CONNECT_RETRY), then it answers 503 service_unavailable', async () => {
      expectProblem(
        await call(gateway.url, '/payments/one-off', { method: 'POST', headers: withKey({ 'content-type': 'application/json' }), body: '{}' }),
        503,
        'service_unavailable',
      );
    });

    it('when an upstream fails with a 500, then the problem passes through without a stack trace', async () => {
      const result = await call(gateway.url, '/tokens/crash', { headers: withKey() });
      expectProblem(result, 500, 'internal_error');
      expect(result.text).not.toContain('exploded');
    });

    it('when /health, /ready and /openapi.json are called, then they answer without a key', async () => {
      expect((await call(gateway.url, '/health')).json).toEqual({ status: 'ok' });
      const ready = await call(gateway.url, '/ready');
      expectProblem(ready, 503, 'not_ready');
      expect(ready.json.detail).toContain('payment-orchestrator');
      const doc = await call(gateway.url, '/openapi.json');
      expect(doc.json.openapi).toBe('3.1.0');
      expect(doc.json.servers).toEqual([{ url: 'https://api.vaultline.test' }]);
    });

    it('when a JSON route gets a form or text body, then the edge answers 415 naming application/json; /forward still takes a form', async () => {
      const form = await call(gateway.url, '/payments/one-off', {
        method: 'POST',
        headers: withKey({ 'content-type': 'application/x-www-form-urlencoded' }),
        body: '{"amount":1250}',
      });
      expectProblem(form, 415, 'unsupported_media_type');
      expect(form.json).toMatchObject({ field: 'Content-Type', detail: expect.stringContaining('application/json') });
      expect(form.json.detail).not.toContain('x-www-form-urlencoded');
      const admin = await call(gateway.url, '/admin/merchants', {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=Shop',
      });
      expectProblem(admin, 415, 'unsupported_media_type');
      const forward = await call(gateway.url, '/forward', {
        method: 'POST',
        headers: withKey({ 'content-type': 'application/x-www-form-urlencoded' }),
        body: 'card[number]={{ account_number }}',
      });
      expect((forward.json as unknown as EchoBody).service).toBe('forwarder');
    });

    it('when a POST whose body is optional comes without a body or a Content-Type, then it reaches the service', async () => {
      // rotate-secret takes an optional {grace_period_seconds}; capture (an optional body too) goes to the orchestrator, down in this harness.
      const result = await call(gateway.url, '/webhook-endpoints/0190a6b2-aaaa-7bbb-8ccc-123456789abc/rotate-secret', { method: 'POST', headers: withKey() });
      expect(result.status).toBe(201);
      expect((result.json as unknown as EchoBody).service).toBe('notifier');
      expect((result.json as unknown as EchoBody).raw).toBeNull();
    });
  });
});

describe('the merchant edge, proxying to a service that does not answer', () => {
  it('when the service sends no answer within GATEWAY_UPSTREAM_TIMEOUT, then the merchant gets 504 upstream_timeout', async () => {
    const upstreams = await startUpstreams();
    const silent = createServer(() => undefined);
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
    upstreams.urls.vault = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const gateway = await startGateway(upstreams, new MemoryDocumentStore(), { GATEWAY_UPSTREAM_TIMEOUT: '250ms' });
    try {
      const created = await call(gateway.url, '/admin/merchants', {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Slow shop' }),
      });

      const started = Date.now();
      const answer = await call(gateway.url, '/tokens', { headers: { 'x-api-key': created.json.api_key as string } });

      expectProblem(answer, 504, 'upstream_timeout');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await gateway.close();
      silent.closeAllConnections();
      silent.close();
      await upstreams.close();
    }
  });
});

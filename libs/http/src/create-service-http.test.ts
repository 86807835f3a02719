import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { ConflictError } from '@vaultline/core';
import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { createLogger } from '@vaultline/logger';
import { createServiceHttp } from './create-service-http';
import { authOf, requireIssuer, requireScope } from './request-context';
import { parseInput } from './parse-input';
import { rawBodyOf } from './body-parsing';
import { startHttpServer, type RunningServer } from './http-server';

const keys = generateInternalKeyPair();
const gateway = new InternalTokenSigner('gateway', keys.privateKeyPem);
const importer = new InternalTokenSigner('importer', keys.privateKeyPem);
const verifier = new InternalTokenVerifier('vault', { gateway: keys.publicKeyPem, importer: keys.publicKeyPem });
const PAN = '4111111111111111';

let server: RunningServer;
let ready = true;
const logLines: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _e, cb) {
      logLines.push(chunk.toString());
      cb();
    },
  });
  const app = createServiceHttp({
    publicBaseUrl: 'https://vaultline.internal',
    service: 'vault',
    verifier,
    logger: createLogger({ service: 'vault', level: 'warn', destination }),
    bodyLimit: '1kb',
    readiness: async () => {
      if (!ready) throw new Error('store down');
    },
    routes: (router) => {
      router.get('/whoami', (req, res) => {
        res.json(authOf(req));
      });
      router.post('/echo', (req, res) => {
        const body = parseInput(z.object({ name: z.string().min(1) }), req.body);
        res.status(201).json({ name: body.name, raw: rawBodyOf(req)?.toString('utf8') });
      });
      router.post('/merchant-only', requireScope('merchant'), (_req, res) => {
        res.json({ ok: true });
      });
      router.post('/importer-only', requireIssuer('importer'), (_req, res) => {
        res.json({ ok: true });
      });
      router.get('/things/:thingId', (req, res) => {
        res.json({ id: req.params.thingId });
      });
      router.get('/conflict', () => {
        throw new ConflictError('already_done', 'It was already done.', { field: 'state', current: 'captured' });
      });
      router.get('/crash', async () => {
        throw new Error(`database exploded while reading card ${PAN}`);
      });
    },
  });
  server = await startHttpServer(app);
});

afterAll(async () => {
  await server.close();
});

const token = (scopes = ['merchant'], signer = gateway, audience = 'vault') => signer.sign(audience, { merchantId: 'm_1', scopes });

async function call(path: string, init: RequestInit & { auth?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.auth !== null) headers.set('authorization', `Bearer ${init.auth ?? token()}`);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function expectProblem(result: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(result.status).toBe(status);
  expect(result.headers.get('content-type')).toContain('application/problem+json');
  expect(result.body).toMatchObject({ status, code, type: `https://vaultline.internal/docs/errors#${code}` });
  expect(typeof result.body.title).toBe('string');
  expect(typeof result.body.detail).toBe('string');
  expect(result.body.request_id).toBe(result.headers.get('x-request-id'));
}

describe('createServiceHttp', () => {
  it('when /health and /ready are called without a token, then they answer', async () => {
    expect((await call('/health', { auth: null })).body).toEqual({ status: 'ok' });
    expect((await call('/ready', { auth: null })).status).toBe(200);
    ready = false;
    try {
      expectProblem(await call('/ready', { auth: null }), 503, 'not_ready');
    } finally {
      ready = true;
    }
  });

  it('when a route is called without a token, with a token for another audience or from an unknown issuer, then it answers 401', async () => {
    expectProblem(await call('/whoami', { auth: null }), 401, 'invalid_internal_token');
    expectProblem(await call('/whoami', { auth: token(['merchant'], gateway, 'forwarder') }), 401, 'invalid_internal_token');
    const stranger = new InternalTokenSigner('stranger', generateInternalKeyPair().privateKeyPem);
    expectProblem(await call('/whoami', { auth: token(['merchant'], stranger) }), 401, 'invalid_internal_token');
  });

  it('when a token is signed with a key the service does not trust, then the answer is generic and the precise reason is logged at warn with the request id', async () => {
    const stranger = new InternalTokenSigner('gateway', generateInternalKeyPair().privateKeyPem);
    const response = await fetch(`${server.url}/whoami`, {
      headers: { authorization: `Bearer ${stranger.sign('vault', { merchantId: 'm1', scopes: ['merchant'] })}`, 'x-request-id': 'req-bad-signature' },
    });
    const body = (await response.json()) as { code: string; detail: string };
    expect({ status: response.status, code: body.code, detail: body.detail }).toEqual({
      status: 401,
      code: 'invalid_internal_token',
      detail: 'The internal token is not valid.',
    });
    const line = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === 'req-bad-signature');
    expect(line).toMatchObject({ level: 40, reason: expect.stringContaining('invalid signature') });
  });

  describe('every internal-token refusal is answered generically and audited', () => {
    const stranger = new InternalTokenSigner('gateway', generateInternalKeyPair().privateKeyPem);
    const anHourAgo = new InternalTokenSigner('gateway', keys.privateKeyPem, () => Date.now() - 3_600_000);
    const cases: Array<[string, string, Record<string, string>, number, string]> = [
      ['no token', '/whoami', {}, 401, 'invalid_internal_token'],
      ['a malformed token', '/whoami', { authorization: 'Bearer not.a.jwt' }, 401, 'invalid_internal_token'],
      [
        'a token forged with a key nobody trusts',
        '/whoami',
        { authorization: `Bearer ${stranger.sign('vault', { merchantId: 'm_1', scopes: ['merchant'] })}` },
        401,
        'invalid_internal_token',
      ],
      [
        'an expired token',
        '/whoami',
        { authorization: `Bearer ${anHourAgo.sign('vault', { merchantId: 'm_1', scopes: ['merchant'] })}` },
        401,
        'invalid_internal_token',
      ],
      [
        'a token for another audience, replayed here',
        '/whoami',
        { authorization: `Bearer ${gateway.sign('notifier', { merchantId: 'm_1', scopes: ['merchant'] })}` },
        401,
        'invalid_internal_token',
      ],
      [
        "a token without the route's scope",
        '/merchant-only',
        { authorization: `Bearer ${gateway.sign('vault', { merchantId: 'm_1', scopes: ['public'] })}` },
        403,
        'insufficient_scope',
      ],
      [
        'a token from an issuer the route does not accept',
        '/importer-only',
        { authorization: `Bearer ${gateway.sign('vault', { merchantId: 'm_1', scopes: ['merchant'] })}` },
        403,
        'forbidden_issuer',
      ],
    ];

    it.each(cases)(
      'when the caller sends %s, then it is refused and a warn line "access refused" names the request id',
      async (what, path, headers, status, code) => {
        const requestId = `req-refused-${what.replace(/\W+/g, '-')}`;
        const method = path === '/whoami' ? 'GET' : 'POST';
        const response = await fetch(`${server.url}${path}`, { method, headers: { ...headers, 'x-request-id': requestId } });

        expect({ status: response.status, code: ((await response.json()) as { code: string }).code }).toEqual({ status, code });
        const line = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === requestId);
        expect(line).toMatchObject({ level: 40, msg: 'access refused', status, code, path });
      },
    );
  });

  it('when a valid token is given, then the handler sees the merchant, the scopes and the X-Request-Id', async () => {
    const result = await call('/whoami', { headers: { 'x-request-id': 'r_1' } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      issuer: 'gateway',
      merchantId: 'm_1',
      scopes: ['merchant'],
      requestId: 'r_1',
      mode: null,
      keyId: null,
      merchantName: null,
      clientAddress: '127.0.0.1',
      trace: null,
    });
  });

  it('when the caller sends X-Request-Id, then it is echoed; otherwise one is minted', async () => {
    expect((await call('/whoami', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
    expect((await call('/whoami')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('/whoami', { headers: { 'x-request-id': 'bad value\twith tab' } })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when the scope or the issuer is wrong, then it answers 403', async () => {
    expectProblem(await call('/merchant-only', { method: 'POST', auth: token(['public']) }), 403, 'insufficient_scope');
    expect((await call('/merchant-only', { method: 'POST' })).status).toBe(200);
    expectProblem(await call('/importer-only', { method: 'POST' }), 403, 'forbidden_issuer');
    expect((await call('/importer-only', { method: 'POST', auth: token(['x'], importer) })).status).toBe(200);
  });

  it('when JSON and form bodies are valid, then they are parsed and the raw bytes are kept', async () => {
    const json = await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"ada"}' });
    expect(json.status).toBe(201);
    expect(json.body).toEqual({ name: 'ada', raw: '{"name":"ada"}' });
    const form = await call('/echo', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=bob' });
    expect(form.body).toEqual({ name: 'bob', raw: 'name=bob' });
  });

  it('when the body is invalid, then it answers 422 naming the field without echoing the value', async () => {
    const result = await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":4242424242424242}' });
    expectProblem(result, 422, 'validation_failed');
    expect(result.body.field).toBe('name');
    expect(result.text).not.toContain('4242424242424242');
  });

  it('when the body is malformed, too large or of an unsupported type, then it answers 400, 413 or 415', async () => {
    expectProblem(await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' }), 400, 'malformed_json');
    expectProblem(
      await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(2000) }) }),
      413,
      'payload_too_large',
    );
    expectProblem(await call('/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name' }), 415, 'unsupported_media_type');
  });

  it('when a gzip body is well-formed, then it is inflated and parsed', async () => {
    const result = await call('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: new Uint8Array(gzipSync('{"name":"ada"}')),
    });
    expect(result.status).toBe(201);
    expect(result.body.name).toBe('ada');
  });

  it.each([
    ['gzip', Buffer.from('{"name":"not gzip"}')],
    ['deflate', Buffer.from('{"name":"not deflate"}')],
    ['br', Buffer.from('{"name":"not brotli"}')],
    ['gzip', gzipSync('{"name":"' + 'x'.repeat(500) + '"}').subarray(0, 30)],
  ])('when Content-Encoding says %s but the body does not decode, then it answers 400 invalid_content_encoding', async (encoding, body) => {
    const result = await call('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body: new Uint8Array(body),
    });
    expectProblem(result, 400, 'invalid_content_encoding');
    expect(result.body.field).toBe('Content-Encoding');
  });

  it('when Content-Encoding names an encoding we do not decode, then it answers 415 unsupported_content_encoding', async () => {
    expectProblem(
      await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: '{"name":"ada"}' }),
      415,
      'unsupported_content_encoding',
    );
  });

  it('when a form body nests its keys deeper than the parser allows, then it answers 422 body_too_deep', async () => {
    const result = await call('/echo', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `name${'[a]'.repeat(40)}=1` });
    expectProblem(result, 422, 'body_too_deep');
    expect(result.body.field).toBe('body');
  });

  it('when the route is unknown, then it answers 404 route_not_found', async () => {
    expectProblem(await call('/nope'), 404, 'route_not_found');
  });

  it.each(['%C0%AF', '%zz', '%', '%FF'])(
    'when a path parameter is not valid percent-encoding (%s), then it answers 400 malformed_path, not 500',
    async (segment) => {
      const result = await call(`/things/${segment}`);

      expectProblem(result, 400, 'malformed_path');
      expect(result.body.detail).not.toContain(segment);
    },
  );

  it('when a handler throws an AppError, then its code, status and extensions become the problem', async () => {
    const result = await call('/conflict');
    expectProblem(result, 409, 'already_done');
    expect(result.body).toMatchObject({ field: 'state', current: 'captured', detail: 'It was already done.' });
  });

  it('when a handler throws anything else, then it answers 500 without internals and the log masks the PAN', async () => {
    const result = await call('/crash', { headers: { 'x-request-id': 'crash-1' } });
    expectProblem(result, 500, 'internal_error');
    expect(result.text).not.toContain('exploded');
    expect(result.text).not.toContain('at ');
    expect(result.body.request_id).toBe('crash-1');
    const log = logLines.join('');
    expect(log).toContain('crash-1');
    expect(log).toContain('exploded');
    expect(log).not.toContain(PAN);
  });
});

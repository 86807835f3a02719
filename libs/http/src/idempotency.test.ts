import { createHash, randomBytes } from 'node:crypto';
import express from 'express';
import { AppError, ManualClock, UnavailableError, waitFor } from '@vaultline/core';
import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { createLogger } from '@vaultline/logger';
import { MemoryTtlStore } from '@vaultline/ttl';
import { answers, reply } from './answer';
import { serviceHttp, type ServiceRoutes } from './create-service-http';
import { authOf, requestIdMiddleware } from './request-context';
import { rawBodyOf } from './body-parsing';
import { startHttpServer, type RunningServer } from './http-server';
import type { IdempotencyRecordStore } from './idempotency';

/**
 * Idempotency-Key, applied once, in the service that serves the route (issue #33): the same rules over
 * the transport shell (HTTP with the internal JWT) and in-process (a caller's request context).
 */
const keys = generateInternalKeyPair();
const gateway = new InternalTokenSigner('gateway', keys.privateKeyPem);
const verifier = new InternalTokenVerifier('vault', { gateway: keys.publicKeyPem });
const fingerprintKey = randomBytes(32);
const RETENTION_MS = 60_000;
const LEASE_MS = 30_000;

interface Harness {
  server: RunningServer;
  /** An edge in front of the routes in this process, as the embedded profile's gateway mounts them. */
  edge: RunningServer;
  clock: ManualClock;
  /** Every record value written to the TTL store. */
  written: string[];
  served: () => number;
  /** Lets the requests held at /slow finish, and every later one through. */
  release: () => void;
  failStore: (failing: boolean) => void;
  close(): Promise<void>;
}

async function startService(leaseMs = LEASE_MS): Promise<Harness> {
  const clock = new ManualClock('2026-11-28T10:00:00Z');
  const ttl = new MemoryTtlStore({ clock });
  const written: string[] = [];
  let failing = false;
  const guarded = <T>(work: () => Promise<T>) => (failing ? Promise.reject(new Error('redis is down')) : work());
  const store: IdempotencyRecordStore = {
    setIfAbsent: (key, value, ttlMs) => guarded(() => ttl.setIfAbsent(key, value, ttlMs)),
    get: (key) => guarded(() => ttl.get(key)),
    set: (key, value, ttlMs) =>
      guarded(() => {
        written.push(value);
        return ttl.set(key, value, ttlMs);
      }),
    delete: (key) => guarded(() => ttl.delete(key)),
  };
  let served = 0;
  let gate: { promise: Promise<void>; open: () => void } = newGate();
  const { http, routes } = serviceHttp({
    service: 'vault',
    publicBaseUrl: 'https://vaultline.example',
    verifier,
    logger: createLogger({ service: 'vault', level: 'silent' }),
    bodyLimit: '2mb',
    rawBodyPaths: ['/forward'],
    idempotency: { store, fingerprintKey, retentionMs: RETENTION_MS, leaseMs },
    routes: (router) => {
      const echo = async (req: express.Request) =>
        reply(201, {
          served: ++served,
          route: req.path,
          raw: rawBodyOf(req)?.toString('utf8') ?? null,
          merchant: authOf(req).merchantId,
          key: authOf(req).keyId,
        });
      router.post('/tokens', answers(echo));
      router.post('/payments/one-off', answers(echo));
      router.post('/payments/:payment_id/refunds', answers(echo));
      router.post(
        '/slow',
        answers(async (req) => {
          await gate.promise;
          return echo(req);
        }),
      );
      router.post(
        '/fails',
        answers(async () => {
          served++;
          throw new AppError('it_failed', 400, 'It failed.');
        }),
      );
      router.post(
        '/unavailable',
        answers(async () => {
          served++;
          throw new UnavailableError('Try again.');
        }),
      );
      router.post(
        '/big',
        answers(async () => reply(201, { served: ++served, filler: 'a'.repeat(1024 * 1024) })),
      );
      router.post(
        '/forward',
        answers(async (req) =>
          reply(200, Buffer.from(`<served>${++served}</served><token>${req.get('x-service-token') ?? ''}</token>`), { 'Content-Type': 'application/xml' }),
        ),
      );
      router.get(
        '/tokens',
        answers(async () => reply(200, { served: ++served })),
      );
    },
  });
  const server = await startHttpServer(http);
  const edge = await startHttpServer(inProcessEdge(routes));
  return {
    server,
    edge,
    clock,
    written,
    served: () => served,
    release: () => {
      gate.open();
      gate = { promise: Promise.resolve(), open: () => {} };
    },
    failStore: (value) => {
      failing = value;
    },
    close: async () => {
      await server.close();
      await edge.close();
      await ttl.close();
    },
  };
}

function newGate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** What the embedded profile's gateway does, in short: a request id, then the routes with the context its policy chain made. */
function inProcessEdge(routes: ServiceRoutes): express.Express {
  const app = express();
  app.use(requestIdMiddleware());
  app.use((req, res, next) => {
    const merchantId = req.get('x-merchant') ?? 'm_a';
    const mode = req.get('x-mode') === 'live' ? 'live' : 'test';
    routes.serve(
      req,
      res,
      {
        issuer: 'gateway',
        merchantId,
        mode,
        scopes: ['merchant'],
        keyId: 'key_1',
        merchantName: null,
        clientAddress: '203.0.113.9',
        requestId: String(res.locals.requestId),
        trace: null,
      },
      next,
    );
  });
  return app;
}

interface Sent {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

async function post(
  url: string,
  path: string,
  key: string | undefined,
  body: string,
  headers: Record<string, string> = {},
  who: { merchantId?: string; mode?: 'test' | 'live' } = {},
): Promise<Sent> {
  const token = gateway.sign('vault', { merchantId: who.merchantId ?? 'm_a', scopes: ['merchant'], mode: who.mode ?? 'test', keyId: 'key_1' });
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
    body,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (the XML answer)
  }
  return { status: response.status, headers: response.headers, text, json };
}

let used = 0;
const freshKey = () => `key-${++used}`;

describe('Idempotency-Key in a service, over its transport shell', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startService();
    url = h.server.url;
  });
  afterAll(async () => {
    await h.close();
  });

  it('when a POST is repeated with the same key and body, then the first answer comes back (status, body, content type) with Idempotent-Replayed: true, and the handler ran once', async () => {
    const key = freshKey();
    const before = h.served();

    const first = await post(url, '/tokens', key, '{"card":{"number":"4242424242424242"}}');
    const repeat = await post(url, '/tokens', key, '{"card":{"number":"4242424242424242"}}');

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(repeat.text).toBe(first.text);
    expect(h.served()).toBe(before + 1);
  });

  it('when the first request failed with a problem, then a repeat replays that problem (the first request id in it) and the handler does not run again', async () => {
    const key = freshKey();
    const before = h.served();

    const first = await post(url, '/fails', key, '{}');
    const repeat = await post(url, '/fails', key, '{}');

    expect(first.status).toBe(400);
    expect(first.json.code).toBe('it_failed');
    expect(repeat.status).toBe(400);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(repeat.text).toBe(first.text);
    expect(h.served()).toBe(before + 1);
  });

  it('when the same key comes with a different body, then it answers 422 idempotency_key_reused naming the header, and the handler does not run', async () => {
    const key = freshKey();
    await post(url, '/tokens', key, '{"amount":100}');
    const before = h.served();

    const reused = await post(url, '/tokens', key, '{"amount":999}');

    expect({ status: reused.status, code: reused.json.code, field: reused.json.field }).toEqual({
      status: 422,
      code: 'idempotency_key_reused',
      field: 'Idempotency-Key',
    });
    expect(h.served()).toBe(before);
  });

  it('when a repeat arrives while the first still runs, then it answers 409 idempotency_key_in_use, and once the first answered a repeat replays it', async () => {
    const key = freshKey();
    const slow = post(url, '/slow', key, '{}');
    // The first holds its claim once its request has reached the handler: wait for the claim, not for time.
    let meanwhile: Sent;
    do meanwhile = await post(url, '/slow', key, '{}');
    while (meanwhile.status !== 409);
    h.release();
    const first = await slow;
    const later = await post(url, '/slow', key, '{}');

    expect(meanwhile.json.code).toBe('idempotency_key_in_use');
    expect(first.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.text).toBe(first.text);
  });

  it("when two merchants, a merchant's test and live keys, or one merchant on two routes use the same key, then each request runs on its own", async () => {
    const key = freshKey();
    const before = h.served();

    const answers = [
      await post(url, '/tokens', key, '{}'),
      await post(url, '/tokens', key, '{}', {}, { merchantId: 'm_b' }),
      await post(url, '/tokens', key, '{}', {}, { mode: 'live' }),
      await post(url, '/payments/one-off', key, '{}'),
    ];

    expect(answers.map((answer) => [answer.status, answer.headers.get('idempotent-replayed')])).toEqual(Array(4).fill([201, null]));
    expect(h.served()).toBe(before + 4);
  });

  it('when the route is spelled four ways the router takes for one route, then one key runs it once and the other three replay its answer', async () => {
    const key = freshKey();
    const before = h.served();

    const spellings = ['/payments/one-off', '/payments/one-off/', '/payments/ONE-OFF', '/payments/One-Off/'];
    const sent: Sent[] = [];
    for (const path of spellings) sent.push(await post(url, path, key, '{"amount":1999}'));

    expect(h.served()).toBe(before + 1);
    expect(sent.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true', 'true']);
    expect(new Set(sent.map((answer) => answer.text)).size).toBe(1);
  });

  it('when one key is sent for the same route on another resource (another path parameter), then it is another request: 422', async () => {
    const key = freshKey();
    await post(url, '/payments/0190f2a4-0000-7000-8000-000000000001/refunds', key, '{"amount":100}');

    const other = await post(url, '/payments/0190f2a4-0000-7000-8000-000000000002/refunds', key, '{"amount":100}');

    expect({ status: other.status, code: other.json.code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
  });

  it('when a forward names another token under the same key, then it is a different request: 422', async () => {
    const key = freshKey();
    await post(url, '/forward', key, '{"amount":1}', { 'x-service-token': 'tok-1' });

    const other = await post(url, '/forward', key, '{"amount":1}', { 'x-service-token': 'tok-2' });

    expect({ status: other.status, code: other.json.code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
  });

  it('when the answer is 503, then the key is released and the retry runs', async () => {
    const key = freshKey();
    const before = h.served();

    const unavailable = await post(url, '/unavailable', key, '{}');
    const retry = await post(url, '/unavailable', key, '{}');

    expect([unavailable.status, retry.status]).toEqual([503, 503]);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(h.served()).toBe(before + 2);
  });

  it('when the first answer is not JSON or larger than 1 MB, then it reaches the client whole but is not kept: a repeat answers 409 idempotent_response_not_kept with the first status, and does not run', async () => {
    for (const path of ['/forward', '/big']) {
      const key = freshKey();
      const first = await post(url, path, key, '{}', { 'x-service-token': 'tok-1' });
      const before = h.served();

      const repeat = await post(url, path, key, '{}', { 'x-service-token': 'tok-1' });

      expect(first.status).toBeLessThan(300);
      if (path === '/big') expect(first.text.length).toBeGreaterThan(1024 * 1024);
      expect({ status: repeat.status, code: repeat.json.code, original: repeat.json.original_status }).toEqual({
        status: 409,
        code: 'idempotent_response_not_kept',
        original: first.status,
      });
      expect(h.served()).toBe(before);
    }
  });

  it('when the key is empty, longer than 255 characters or not visible ASCII, then it answers 400 invalid_idempotency_key naming the header', async () => {
    for (const key of ['', 'k'.repeat(256), 'two words']) {
      const refused = await post(url, '/tokens', key, '{}');
      expect({ status: refused.status, code: refused.json.code, field: refused.json.field }).toEqual({
        status: 400,
        code: 'invalid_idempotency_key',
        field: 'Idempotency-Key',
      });
    }
    expect((await post(url, '/tokens', 'k'.repeat(255), '{}')).status).toBe(201);
  });

  it('when a GET carries an Idempotency-Key, then the header is ignored and every GET runs', async () => {
    const key = freshKey();
    const get = async () => {
      const token = gateway.sign('vault', { merchantId: 'm_a', scopes: ['merchant'], mode: 'test' });
      const response = await fetch(`${url}/tokens`, { headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } });
      return { replayed: response.headers.get('idempotent-replayed'), served: ((await response.json()) as { served: number }).served };
    };

    const first = await get();
    const second = await get();

    expect(second).toEqual({ replayed: null, served: first.served + 1 });
  });

  it('when a call carries no merchant key (an internal or public call: no mode), then the header is ignored', async () => {
    const key = freshKey();
    const token = gateway.sign('vault', { merchantId: '__public__', scopes: ['public'] });
    const send = () =>
      fetch(`${url}/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: '{}',
      });

    const first = await send();
    const second = await send();

    expect([first.status, second.status, second.headers.get('idempotent-replayed')]).toEqual([201, 201, null]);
  });

  it('when IDEMPOTENCY_KEY_TTL has passed, then the key is forgotten and the same request runs again', async () => {
    const key = freshKey();
    await post(url, '/tokens', key, '{}');
    expect((await post(url, '/tokens', key, '{}')).headers.get('idempotent-replayed')).toBe('true');

    h.clock.advance(RETENTION_MS + 1);
    const afterTtl = await post(url, '/tokens', key, '{}');

    expect(afterTtl.status).toBe(201);
    expect(afterTtl.headers.get('idempotent-replayed')).toBeNull();
  });

  it('when the records cannot be read (the TTL store is down), then a POST with a key answers 503 rather than running unprotected', async () => {
    const before = h.served();
    h.failStore(true);
    try {
      const refused = await post(url, '/tokens', freshKey(), '{}');
      expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 503, code: 'service_unavailable' });
    } finally {
      h.failStore(false);
    }
    expect(h.served()).toBe(before);
  });

  it('when a card is tokenized with a key, then the record keeps a keyed fingerprint: no stored value holds the unkeyed SHA-256 of the body', async () => {
    const body = '{"card":{"number":"4111111111111111","exp_month":3,"exp_year":2030,"cvc":"737"}}';
    const unkeyed = [
      createHash('sha256').update(body).digest('hex'),
      createHash('sha256').update(body).digest('base64url'),
      createHash('sha256').update(body).digest('base64'),
    ];
    h.written.length = 0;

    await post(url, '/tokens', freshKey(), body);

    expect(h.written).toHaveLength(1);
    const record = JSON.parse(h.written[0]!) as { fingerprint: string };
    expect(record.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const hash of unkeyed) expect(h.written[0]).not.toContain(hash);
    expect(h.written[0]).not.toContain('4111111111111111');
  });
});

describe("Idempotency-Key in a service mounted in its caller's process", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startService();
  });
  afterAll(async () => {
    await h.close();
  });

  const send = async (path: string, key: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${h.edge.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...headers },
      body,
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
  };

  it("when the route is spelled four ways, then one key runs it once, with the caller's context, and the others replay the first answer", async () => {
    const key = freshKey();
    const before = h.served();

    const sent = [];
    for (const path of ['/payments/one-off', '/payments/one-off/', '/payments/ONE-OFF', '/payments/One-Off/'])
      sent.push(await send(path, key, '{"amount":1999}'));

    expect(h.served()).toBe(before + 1);
    expect(sent.map((answer) => [answer.status, answer.replayed])).toEqual([
      [201, null],
      [201, 'true'],
      [201, 'true'],
      [201, 'true'],
    ]);
    expect(JSON.parse(sent[0]!.text)).toMatchObject({ merchant: 'm_a', key: 'key_1' });
    expect(new Set(sent.map((answer) => answer.text)).size).toBe(1);
  });

  it('when the same key comes from another merchant or with a different body, then the first runs on its own and the second is 422', async () => {
    const key = freshKey();
    await send('/tokens', key, '{"amount":1}');

    const otherMerchant = await send('/tokens', key, '{"amount":1}', { 'x-merchant': 'm_other' });
    const otherBody = await send('/tokens', key, '{"amount":2}');

    expect([otherMerchant.status, otherMerchant.replayed]).toEqual([201, null]);
    expect(otherBody.status).toBe(422);
  });
});

describe('Idempotency-Key claims of slow requests', () => {
  const lease = 300;
  let h: Harness;
  beforeAll(async () => {
    h = await startService(lease);
  });
  afterAll(async () => {
    await h.close();
  });

  it('when a request runs longer than a lease, then its claim is renewed while it runs: a retry after the first lease answers 409, never a second run', async () => {
    const key = freshKey();
    const before = h.served();
    const slow = post(h.server.url, '/slow', key, '{}');
    let meanwhile: Sent;
    do meanwhile = await post(h.server.url, '/slow', key, '{}');
    while (meanwhile.status !== 409);

    // The store's time moves past the first lease, once a renewal has been written after the move.
    h.clock.advance(lease * 0.6);
    const written = h.written.length;
    await waitFor(() => h.written.length > written, 10_000, 10);
    h.clock.advance(lease * 0.6);
    const retry = post(h.server.url, '/slow', key, '{}');
    const afterFirstLease = await Promise.race([retry, slow.then(() => retry)]);
    h.release();
    const first = await slow;

    expect({ status: afterFirstLease.status, code: afterFirstLease.json.code }).toEqual({ status: 409, code: 'idempotency_key_in_use' });
    expect(first.status).toBe(201);
    expect(h.served()).toBe(before + 1);
    expect((await post(h.server.url, '/slow', key, '{}')).text).toBe(first.text);
  });
});

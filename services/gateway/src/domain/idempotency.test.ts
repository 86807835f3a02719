import { ManualClock } from '@vaultline/core';
import { MemoryTtlStore } from '@vaultline/ttl';
import {
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  IdempotentResponseNotKept,
  InvalidIdempotencyKey,
  fingerprintOf,
  idempotentRequests,
  keptResponseOf,
  parseIdempotencyKey,
  releasesKey,
  releasesKeyAfterTransportFailure,
  scopeOf,
  type CapturedResponse,
  type IdempotentRequest,
} from './idempotency';

const request = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
  merchantId: 'm1',
  mode: 'test',
  method: 'POST',
  path: '/tokens',
  url: '/tokens',
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"a":1}'),
  ...overrides,
});

const answer = (overrides: Partial<CapturedResponse> = {}): CapturedResponse => ({
  status: 201,
  headers: { 'content-type': 'application/json; charset=utf-8', location: '/tokens/t1', 'x-request-id': 'r1', date: 'now' },
  body: Buffer.from('{"id":"t1"}'),
  complete: true,
  ...overrides,
});

describe('parseIdempotencyKey', () => {
  it('when the header is absent, then there is no key; when it is 1 to 255 visible ASCII characters, then it is the key', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
  });

  it.each([[''], ['k'.repeat(256)], ['two words'], ['tab\there'], ['caf\u00e9']])('when the key is %j, then it is refused as invalid_idempotency_key naming the header', (key) => {
    expect(() => parseIdempotencyKey(key)).toThrow(InvalidIdempotencyKey);
    expect(() => parseIdempotencyKey(key)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_idempotency_key', extensions: { field: 'Idempotency-Key' } }));
  });
});

describe('fingerprintOf and scopeOf', () => {
  it('when the method, path and query, body, content type, token or destination differ, then the fingerprint differs', () => {
    const base = fingerprintOf(request());
    expect(fingerprintOf(request())).toBe(base);
    for (const other of [
      request({ method: 'PUT' }),
      request({ url: '/tokens?x=1' }),
      request({ body: Buffer.from('{"a":2}') }),
      request({ body: null }),
      request({ headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      request({ headers: { 'content-type': 'application/json', 'x-service-token': 'tok-1' } }),
      request({ headers: { 'content-type': 'application/json', 'x-destination-url': 'https://psp.example' } }),
    ]) {
      expect(fingerprintOf(other)).not.toBe(base);
    }
  });

  it('when only credentials, request ids or trace headers differ, then it is the same request', () => {
    const retried = request({ headers: { 'content-type': 'application/json', 'x-request-id': 'other', authorization: 'Bearer new', traceparent: '00-abc' } });
    expect(fingerprintOf(retried)).toBe(fingerprintOf(request()));
  });

  it('when the merchant, the key\'s mode, the method, the path or the key differ, then the scope differs; the query does not choose the scope', () => {
    const base = scopeOf(request(), 'k1');
    expect(scopeOf(request({ url: '/tokens?x=1' }), 'k1')).toBe(base);
    expect(scopeOf(request({ merchantId: 'm2' }), 'k1')).not.toBe(base);
    expect(scopeOf(request({ mode: 'live' }), 'k1')).not.toBe(base);
    expect(scopeOf(request({ method: 'PUT' }), 'k1')).not.toBe(base);
    expect(scopeOf(request({ path: '/forward', url: '/forward' }), 'k1')).not.toBe(base);
    expect(scopeOf(request(), 'k2')).not.toBe(base);
    expect(base).toMatch(/^idempotency:m1:test:[0-9a-f]{64}$/);
  });
});

describe('the rules for responses', () => {
  it('when the answer is 503, then the key is released; every other answer, 500 and 504 included, keeps it', () => {
    expect(releasesKey(503)).toBe(true);
    for (const status of [200, 201, 400, 409, 422, 500, 502, 504]) expect(releasesKey(status)).toBe(false);
  });

  it('when the gateway got no answer, then a 503 (not reached) releases the key and a 504 (maybe still running) does not', () => {
    expect(releasesKeyAfterTransportFailure(503)).toBe(true);
    expect(releasesKeyAfterTransportFailure(500)).toBe(true);
    expect(releasesKeyAfterTransportFailure(504)).toBe(false);
  });

  it('when a complete JSON or problem answer is kept, then its status, content type, location and exact bytes are, and nothing else', () => {
    expect(keptResponseOf(answer())).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', location: '/tokens/t1' },
      body: Buffer.from('{"id":"t1"}').toString('base64'),
    });
    expect(keptResponseOf(answer({ status: 422, headers: { 'content-type': 'application/problem+json' } })).body).not.toBeNull();
  });

  it('when the answer has no body, then there is nothing that could hold card data: it is kept whatever its type', () => {
    expect(keptResponseOf(answer({ status: 204, headers: {}, body: Buffer.alloc(0) }))).toEqual({ status: 204, headers: {}, body: '' });
  });

  it('when the answer is not JSON or was cut off or over the limit, then its body is not kept', () => {
    expect(keptResponseOf(answer({ headers: { 'content-type': 'text/html' } })).body).toBeNull();
    expect(keptResponseOf(answer({ headers: {} })).body).toBeNull();
    expect(keptResponseOf(answer({ headers: { 'content-type': 'application/jsonp' } })).body).toBeNull();
    expect(keptResponseOf(answer({ complete: false })).body).toBeNull();
  });
});

describe('idempotentRequests', () => {
  const LEASE_MS = 70_000;
  const RETENTION_MS = 24 * 60 * 60 * 1000;
  let clock: ManualClock;
  let ttl: MemoryTtlStore;
  let requests: ReturnType<typeof idempotentRequests>;

  beforeEach(() => {
    clock = new ManualClock();
    ttl = new MemoryTtlStore({ clock });
    requests = idempotentRequests({ ttl, retentionMs: RETENTION_MS, leaseMs: LEASE_MS });
  });
  afterEach(() => ttl.close());

  it('when a key is new, then the request runs; while it runs, a repeat is refused with 409 and another request with 422', async () => {
    expect(await requests.begin('s', 'fp-1')).toEqual({ kind: 'run' });

    await expect(requests.begin('s', 'fp-1')).rejects.toBeInstanceOf(IdempotencyKeyInUse);
    await expect(requests.begin('s', 'fp-2')).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });

  it('when the request has answered, then a repeat replays the answer until the retention time has passed, and then runs again', async () => {
    await requests.begin('s', 'fp-1');
    await requests.finish('s', 'fp-1', answer());

    expect(await requests.begin('s', 'fp-1')).toEqual({ kind: 'replay', response: { status: 201, headers: { 'content-type': 'application/json; charset=utf-8', location: '/tokens/t1' }, body: Buffer.from('{"id":"t1"}') } });
    await expect(requests.begin('s', 'fp-2')).rejects.toBeInstanceOf(IdempotencyKeyReused);
    clock.advance(RETENTION_MS);
    expect(await requests.begin('s', 'fp-2')).toEqual({ kind: 'run' });
  });

  it('when the answer was 503, then the key is free at once', async () => {
    await requests.begin('s', 'fp-1');
    await requests.finish('s', 'fp-1', answer({ status: 503 }));

    expect(await requests.begin('s', 'fp-1')).toEqual({ kind: 'run' });
  });

  it('when the answer could not be kept, then a repeat is told so (409 with the first status) and does not run', async () => {
    await requests.begin('s', 'fp-1');
    await requests.finish('s', 'fp-1', answer({ headers: { 'content-type': 'text/xml' } }));

    await expect(requests.begin('s', 'fp-1')).rejects.toThrow(IdempotentResponseNotKept);
    await expect(requests.begin('s', 'fp-1')).rejects.toMatchObject({ status: 409, code: 'idempotent_response_not_kept', extensions: { original_status: 201 } });
  });

  it('when the service could not be reached, then the key is released; after an upstream timeout it stays claimed until the lease ends', async () => {
    await requests.begin('unreached', 'fp');
    await requests.abandon('unreached', 503);
    await requests.begin('timed-out', 'fp');
    await requests.abandon('timed-out', 504);

    expect(await requests.begin('unreached', 'fp')).toEqual({ kind: 'run' });
    await expect(requests.begin('timed-out', 'fp')).rejects.toBeInstanceOf(IdempotencyKeyInUse);
    clock.advance(LEASE_MS);
    expect(await requests.begin('timed-out', 'fp')).toEqual({ kind: 'run' });
  });

  it('when the gateway died mid-request, then the claim lapses with its lease and a retry runs', async () => {
    await requests.begin('s', 'fp-1');

    clock.advance(LEASE_MS - 1);
    await expect(requests.begin('s', 'fp-1')).rejects.toBeInstanceOf(IdempotencyKeyInUse);
    clock.advance(1);
    expect(await requests.begin('s', 'fp-1')).toEqual({ kind: 'run' });
  });

  it('when 50 identical requests begin at once, then exactly one runs and the others are told it is in use', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => requests.begin('s', 'fp-1')));

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof IdempotencyKeyInUse)).toHaveLength(49);
  });
});

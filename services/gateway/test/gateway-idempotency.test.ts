import { MemoryDocumentStore } from '@vaultline/store';
import type { EchoBody } from './support/echo-upstream';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { call, expectProblem, type CallResult } from './support/http-call';

async function newMerchantKey(gateway: RunningGateway, name: string): Promise<string> {
  const created = await call(gateway.url, '/admin/merchants', {
    method: 'POST',
    headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return created.json.api_key as string;
}

const echoOf = (result: CallResult) => result.json as unknown as EchoBody;
let keys = 0;
const freshKey = () => `idem-${Date.now()}-${++keys}`;

describe('Idempotency-Key at the merchant edge', () => {
  let upstreams: Upstreams;
  let gateway: RunningGateway;
  let apiKey: string;

  beforeAll(async () => {
    upstreams = await startUpstreams();
    gateway = await startGateway(upstreams, new MemoryDocumentStore());
    apiKey = await newMerchantKey(gateway, 'Idempotent shop');
  });

  afterAll(async () => {
    await gateway.close();
    await upstreams.close();
  });

  const post = (path: string, key: string | undefined, body: string, headers: Record<string, string> = {}, merchantKey = apiKey) =>
    call(gateway.url, path, {
      method: 'POST',
      headers: { 'x-api-key': merchantKey, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
      body,
    });

  it('when a POST is repeated with the same key and body, then the first response comes back (status, body, content type) with Idempotent-Replayed: true and the service runs once', async () => {
    const key = freshKey();
    const body = '{"card":{"number":"tok_placeholder"},"n":1}';

    const first = await post('/tokens', key, body);
    const repeat = await post('/tokens', key, body);

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(echoOf(first).raw).toBe(body);
    expect({ status: repeat.status, text: repeat.text }).toMatchObject({ status: 201 });
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(repeat.text).toBe(first.text);
    const afterwards = await post('/tokens', undefined, body);
    expect(echoOf(afterwards).served).toBe(echoOf(first).served + 1);
  });

  it('when the first response was an error the service answered, then the repeat replays that error', async () => {
    const key = freshKey();

    const first = await post('/tokens', key, '{"bad":true}', { 'x-echo-status': '422' });
    const repeat = await post('/tokens', key, '{"bad":true}');

    expect(first.status).toBe(422);
    expect(repeat.status).toBe(422);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.text).toBe(first.text);
  });

  it('when the same key comes with a different body, then it answers 422 idempotency_key_reused and the service does not run', async () => {
    const key = freshKey();
    const first = await post('/tokens', key, '{"amount":100}');

    const reused = await post('/tokens', key, '{"amount":999}');

    expectProblem(reused, 422, 'idempotency_key_reused');
    expect(reused.json.field).toBe('Idempotency-Key');
    expect(echoOf(await post('/tokens', undefined, '{}')).served).toBe(echoOf(first).served + 1);
  });

  it('when a repeat arrives while the first is still running, then it answers 409 idempotency_key_in_use, and once the first has answered a repeat replays it', async () => {
    const key = freshKey();
    const body = '{"slow":true}';

    const slow = post('/tokens', key, body, { 'x-echo-delay-ms': '400' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const meanwhile = await post('/tokens', key, body);
    const first = await slow;
    const later = await post('/tokens', key, body);

    expectProblem(meanwhile, 409, 'idempotency_key_in_use');
    expect(first.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.text).toBe(first.text);
  });

  it('when two merchants use the same key, or one merchant uses it on two routes, then each runs on its own', async () => {
    const key = freshKey();
    const otherKey = await newMerchantKey(gateway, 'Other shop');

    const mine = await post('/tokens', key, '{}');
    const theirs = await post('/tokens', key, '{}', {}, otherKey);
    const otherRoute = await post('/forward', key, '{}', { 'x-service-token': 'tok', 'x-destination-url': 'https://psp.example/pay' });

    for (const result of [mine, theirs, otherRoute]) {
      expect(result.status).toBe(201);
      expect(result.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(echoOf(theirs).served).toBe(echoOf(mine).served + 1);
    expect(echoOf(otherRoute).service).toBe('forwarder');
  });

  it('when a merchant\'s test key and live key use the same key with the same body, then each runs on its own: the live request is not answered with the test one\'s response', async () => {
    const key = freshKey();
    const merchant = await call(gateway.url, '/admin/merchants', { method: 'POST', headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Two-mode shop' }) });
    const live = await call(gateway.url, `/admin/merchants/${String(merchant.json.id)}/api-keys`, { method: 'POST', headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'live' }) });
    const testKey = merchant.json.api_key as string;
    const liveKey = live.json.api_key as string;
    expect([testKey.startsWith('sk_test_'), liveKey.startsWith('sk_live_')]).toEqual([true, true]);

    const inTest = await post('/tokens', key, '{}', {}, testKey);
    const inLive = await post('/tokens', key, '{}', {}, liveKey);
    const liveAgain = await post('/tokens', key, '{}', {}, liveKey);

    expect([inTest.status, inLive.status]).toEqual([201, 201]);
    expect(inLive.headers.get('idempotent-replayed')).toBeNull();
    expect(echoOf(inLive).served).toBe(echoOf(inTest).served + 1);
    expect(liveAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(liveAgain.text).toBe(inLive.text);
  });

  it('when a forward names another token or destination under the same key, then it is a different request: 422', async () => {
    const key = freshKey();
    const headers = { 'x-service-token': 'tok-1', 'x-destination-url': 'https://psp.example/pay' };
    await post('/forward', key, '{"amount":1}', headers);

    expectProblem(await post('/forward', key, '{"amount":1}', { ...headers, 'x-service-token': 'tok-2' }), 422, 'idempotency_key_reused');
    expectProblem(await post('/forward', key, '{"amount":1}', { ...headers, 'x-destination-url': 'https://psp.example/other' }), 422, 'idempotency_key_reused');
  });

  it('when the service answers 503, then the key is released and the retry runs', async () => {
    const key = freshKey();

    const unavailable = await post('/tokens', key, '{}', { 'x-echo-status': '503' });
    const retry = await post('/tokens', key, '{}');

    expect(unavailable.status).toBe(503);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(echoOf(retry).served).toBe(echoOf(unavailable).served + 1);
  });

  it('when the service cannot be reached (503 from the gateway), then the key is not kept: the retry is tried again, not replayed or refused', async () => {
    const key = freshKey();

    const first = await post('/payments', key, '{"amount":100}');
    const retry = await post('/payments', key, '{"amount":100}');

    expectProblem(first, 503, 'service_unavailable');
    expectProblem(retry, 503, 'service_unavailable');
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('when the body arrives chunked, then the service receives it whole and a repeat is recognised', async () => {
    const key = freshKey();
    const chunkedPost = () =>
      fetch(`${gateway.url}/tokens`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': key },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"part":'));
            controller.enqueue(new TextEncoder().encode('"two"}'));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);

    const first = await chunkedPost();
    const repeat = await chunkedPost();

    expect(first.status).toBe(201);
    const firstText = await first.text();
    expect((JSON.parse(firstText) as EchoBody).raw).toBe('{"part":"two"}');
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await repeat.text()).toBe(firstText);
  });

  it('when the first answer is larger than 1 MB, then it reaches the client whole but is not kept: a repeat answers 409 idempotent_response_not_kept and does not run', async () => {
    const key = freshKey();
    // Each "a" comes back escaped inside the echo's JSON string: 800 kB in, about 1.2 MB out.
    const body = JSON.stringify(Array.from({ length: 200_000 }, () => 'a'));

    const first = await post('/tokens', key, body);
    const repeat = await post('/tokens', key, body);

    expect(first.status).toBe(201);
    expect(first.text.length).toBeGreaterThan(1024 * 1024);
    expect(echoOf(first).raw).toBe(body);
    expectProblem(repeat, 409, 'idempotent_response_not_kept');
    expect(repeat.json.original_status).toBe(201);
    expect(echoOf(await post('/tokens', undefined, '{}')).served).toBe(echoOf(first).served + 1);
  });

  it('when the key is empty, longer than 255 characters or not visible ASCII, then it answers 400 invalid_idempotency_key naming the header', async () => {
    for (const key of ['', 'k'.repeat(256), 'two words', 'caf\u00e9']) {
      const refused = await post('/tokens', key, '{}');
      expectProblem(refused, 400, 'invalid_idempotency_key');
      expect(refused.json.field).toBe('Idempotency-Key');
    }
    expect((await post('/tokens', 'k'.repeat(255), '{}')).status).toBe(201);
  });

  it('when a GET carries an Idempotency-Key, then the header is ignored and every GET runs', async () => {
    const key = freshKey();
    const get = () => call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey, 'idempotency-key': key } });

    const first = await get();
    const second = await get();

    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(echoOf(second).served).toBe(echoOf(first).served + 1);
  });
});

describe('Idempotency-Key lifetimes', () => {
  let upstreams: Upstreams;
  let gateway: RunningGateway;
  let apiKey: string;

  beforeAll(async () => {
    upstreams = await startUpstreams();
    gateway = await startGateway(upstreams, new MemoryDocumentStore(), { IDEMPOTENCY_KEY_TTL: '300ms', GATEWAY_UPSTREAM_TIMEOUT: '200ms' });
    apiKey = await newMerchantKey(gateway, 'Short-lived keys');
  });

  afterAll(async () => {
    await gateway.close();
    await upstreams.close();
  });

  const post = (key: string, headers: Record<string, string> = {}) =>
    call(gateway.url, '/tokens', { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': key, ...headers }, body: '{}' });

  it('when IDEMPOTENCY_KEY_TTL has passed, then the key is forgotten and the same request runs again', async () => {
    const key = freshKey();
    const first = await post(key);
    expect((await post(key)).headers.get('idempotent-replayed')).toBe('true');

    await new Promise((resolve) => setTimeout(resolve, 400));
    const afterTtl = await post(key);

    expect(afterTtl.status).toBe(201);
    expect(afterTtl.headers.get('idempotent-replayed')).toBeNull();
    expect(echoOf(afterTtl).served).toBeGreaterThan(echoOf(first).served);
  });

  it('when the upstream times out (504), then the service may still be working: a retry meanwhile gets 409 idempotency_key_in_use, not a second run', async () => {
    const key = freshKey();

    const timedOut = await post(key, { 'x-echo-delay-ms': '1500' });
    const retry = await post(key);

    expectProblem(timedOut, 504, 'upstream_timeout');
    expectProblem(retry, 409, 'idempotency_key_in_use');
  });
});

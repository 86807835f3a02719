import { MemoryDocumentStore } from '@vaultline/store';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { adminCall, call, expectDocumented, expectProblem } from './support/http-call';

let upstreams: Upstreams;
let gateway: RunningGateway;

beforeAll(async () => {
  upstreams = await startUpstreams();
  // The buckets' time stands still: however slowly the machine runs the calls, no bucket is topped up
  // between them (on a busy CI machine four calls took longer than a token's 2 s at 0.5 per second).
  const stillTime = new Date();
  gateway = await startGateway(
    upstreams,
    new MemoryDocumentStore(),
    { RATE_LIMIT_PER_SECOND: '0.5', RATE_LIMIT_BURST: '3' },
    { clock: { now: () => stillTime } },
  );
});

afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});

const admin = (path: string, method = 'GET', body?: unknown) => adminCall(gateway.url, ADMIN_KEY, path, method, body);

async function aMerchant(): Promise<{ id: string; apiKey: string }> {
  const created = await admin('/admin/merchants', 'POST', { name: 'Rate limited shop' });
  return { id: created.json.id as string, apiKey: created.json.api_key as string };
}

describe('rate limits per API key at the edge', () => {
  it('when a key sends more than its burst, then the next answer is 429 problem+json with Retry-After and RateLimit-* headers', async () => {
    const { apiKey } = await aMerchant();
    const answers = [];
    for (let n = 0; n < 4; n++) answers.push(await call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey } }));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('3');
    const refused = answers[3]!;
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(2);
  });

  it("when one key is throttled, then another merchant's key still gets through", async () => {
    const first = await aMerchant();
    const second = await aMerchant();
    for (let n = 0; n < 4; n++) await call(gateway.url, '/tokens', { headers: { 'x-api-key': first.apiKey } });

    expect((await call(gateway.url, '/tokens', { headers: { 'x-api-key': second.apiKey } })).status).toBe(200);
  });

  it("when an operator sets a merchant's rate_limit, then its keys get that bucket, the change is audited, and null goes back to the defaults", async () => {
    const { id, apiKey } = await aMerchant();

    const patched = await admin(`/admin/merchants/${id}`, 'PATCH', { rate_limit: { per_second: 0.5, burst: 6 } });
    expect(patched.status).toBe(200);
    expectDocumented('patch', '/admin/merchants/{merchant_id}', patched);
    expect(patched.json.rate_limit).toEqual({ per_second: 0.5, burst: 6 });
    const statuses = [];
    for (let n = 0; n < 7; n++) statuses.push((await call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);

    const audit = await admin('/admin/audit');
    expect(audit.json.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'PATCH', path: `/admin/merchants/${id}`, status: 200, target_ids: [id] })]),
    );

    const reset = await admin(`/admin/merchants/${id}`, 'PATCH', { rate_limit: null });
    expect(reset.json.rate_limit).toBeNull();
    expect((await admin(`/admin/merchants/${id}`)).json.rate_limit).toBeNull();
  });

  it('when the rate_limit is impossible or the merchant unknown, then the PATCH is refused naming the field', async () => {
    const { id } = await aMerchant();

    const zero = await admin(`/admin/merchants/${id}`, 'PATCH', { rate_limit: { per_second: 0, burst: 5 } });
    expectProblem(zero, 422, 'validation_failed');
    expect(zero.json.field).toBe('rate_limit.per_second');
    expectProblem(await admin(`/admin/merchants/${id}`, 'PATCH', { rate_limit: { per_second: 5, burst: 1.5 } }), 422, 'validation_failed');
    expectProblem(
      await admin('/admin/merchants/00000000-0000-4000-8000-000000000000', 'PATCH', { rate_limit: { per_second: 5, burst: 5 } }),
      404,
      'merchant_not_found',
    );
  });
});

import type { Scope } from '@vaultline/core';
import { EnabledEndpointsCache } from './enabled-endpoints-cache';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';

const MERCHANT: Scope = { merchantId: 'merchant_a', mode: 'test' };
const MERCHANT_LIVE: Scope = { merchantId: 'merchant_a', mode: 'live' };
const OTHER: Scope = { merchantId: 'merchant_b', mode: 'test' };

function endpoint(id: string, scope = MERCHANT): WebhookEndpoint {
  return { id, merchant_id: scope.merchantId, mode: scope.mode, enabled: true } as unknown as WebhookEndpoint;
}

function setup(ttlMs = 1_000, maxScopes?: number) {
  let now = 0;
  const stored = new Map<Scope, WebhookEndpoint[]>([
    [MERCHANT, [endpoint('we_1')]],
    [MERCHANT_LIVE, [endpoint('we_live', MERCHANT_LIVE)]],
    [OTHER, [endpoint('we_9', OTHER)]],
  ]);
  const loads: Scope[] = [];
  const cache = new EnabledEndpointsCache(
    async (scope) => {
      loads.push(scope);
      const [, endpoints] = [...stored].find(([key]) => key.merchantId === scope.merchantId && key.mode === scope.mode) ?? [scope, []];
      return [...endpoints];
    },
    { ttlMs, nowMs: () => now, ...(maxScopes ? { maxScopes } : {}) },
  );
  return { cache, stored, loads, advance: (ms: number) => (now += ms) };
}

describe('EnabledEndpointsCache', () => {
  it('when a merchant is asked for twice within the ttl, then the store is read once', async () => {
    const { cache, loads } = setup();

    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1']);
    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1']);
    expect(loads).toEqual([MERCHANT]);
  });

  it('when the ttl has passed, then the store is read again and a change made elsewhere is seen', async () => {
    const { cache, stored, loads, advance } = setup(1_000);
    await cache.get(MERCHANT, 200);
    stored.set(MERCHANT, [endpoint('we_1'), endpoint('we_2')]);

    advance(999);
    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1']);
    advance(1);
    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1', 'we_2']);
    expect(loads).toEqual([MERCHANT, MERCHANT]);
  });

  it('when a merchant is invalidated, then its next read goes to the store and other merchants stay cached', async () => {
    const { cache, stored, loads } = setup();
    await cache.get(MERCHANT, 200);
    await cache.get(OTHER, 200);
    stored.set(MERCHANT, []);

    cache.invalidate(MERCHANT);

    expect(await cache.get(MERCHANT, 200)).toEqual([]);
    await cache.get(OTHER, 200);
    expect(loads).toEqual([MERCHANT, OTHER, MERCHANT]);
  });

  it("when a merchant's test and live endpoints are read, then each mode has its own list, and a write to one mode leaves the other cached", async () => {
    const { cache, loads } = setup();

    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1']);
    expect((await cache.get({ ...MERCHANT_LIVE }, 200)).map((e) => e.id)).toEqual(['we_live']);
    cache.invalidate({ merchantId: 'merchant_a', mode: 'test' });
    await cache.get(MERCHANT_LIVE, 200);
    await cache.get(MERCHANT, 200);

    expect(loads).toEqual([MERCHANT, MERCHANT_LIVE, MERCHANT]);
  });

  it('when a write happens while a read is loading, then that read is answered but not kept', async () => {
    const { cache, loads } = setup();
    const loading = cache.get(MERCHANT, 200);
    cache.invalidate(MERCHANT);
    await loading;

    await cache.get(MERCHANT, 200);
    expect(loads).toEqual([MERCHANT, MERCHANT]);
  });

  it('when a caller changes the list it got, then the cached list does not change', async () => {
    const { cache } = setup();
    (await cache.get(MERCHANT, 200)).pop();

    expect((await cache.get(MERCHANT, 200)).map((e) => e.id)).toEqual(['we_1']);
  });

  it('when asked with another limit, then the store is read with that limit', async () => {
    const { cache, loads } = setup();
    await cache.get(MERCHANT, 200);
    await cache.get(MERCHANT, 5);

    expect(loads).toEqual([MERCHANT, MERCHANT]);
  });

  it('when the ttl is 0, then every read goes to the store', async () => {
    const { cache, loads } = setup(0);
    await cache.get(MERCHANT, 200);
    await cache.get(MERCHANT, 200);

    expect(loads).toEqual([MERCHANT, MERCHANT]);
  });

  it('when more scopes are read than it keeps, then the oldest is dropped first', async () => {
    const { cache, loads } = setup(1_000, 1);
    await cache.get(MERCHANT, 200);
    await cache.get(OTHER, 200);
    await cache.get(OTHER, 200);
    await cache.get(MERCHANT, 200);

    expect(loads).toEqual([MERCHANT, OTHER, MERCHANT]);
  });
});

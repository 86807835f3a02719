import { ttlContract } from '@vaultline/ttl/testing';
import { freePort, startRedisServer, type RunningRedis } from '@vaultline/testing';
import { RedisTtlStore, openTtlStore, type TtlStore } from '../src';

let redis: RunningRedis;
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis.stop();
});

// Each case gets its own key prefix on the shared server, so cases never see each other's keys.
ttlContract('redis', async () => {
  const store = await openTtlStore(redis.url, { keyPrefix: `contract-${++prefixes}:` });
  return { store, cleanup: () => store.close() };
});

describe('RedisTtlStore specifics', () => {
  const stores: TtlStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it("when two stores use different key prefixes, then they never see each other's keys", async () => {
    const vault = new RedisTtlStore(redis.url, { keyPrefix: 'vault:' });
    const gateway = new RedisTtlStore(redis.url, { keyPrefix: 'gateway:' });
    stores.push(vault, gateway);

    await vault.set('shared-name', 'vault value', 60_000);
    await gateway.increment('shared-name', 60_000);

    expect(await vault.get('shared-name')).toBe('vault value');
    expect(await gateway.get('shared-name')).toBe('1');
  });

  it('when a key is set, then Redis holds it under the prefix with a PX expiry', async () => {
    const prefixed = new RedisTtlStore(redis.url, { keyPrefix: 'px-check:' });
    const raw = new RedisTtlStore(redis.url);
    stores.push(prefixed, raw);

    await prefixed.set('k', 'v', 5_000);

    expect(await raw.get('px-check:k')).toBe('v');
    expect(await raw.remainingMs('px-check:k')).toBeGreaterThan(4_000);
  });

  it('when Redis cannot be reached, then openTtlStore fails with a retryable UnavailableError', async () => {
    const closedPort = await freePort();

    await expect(openTtlStore(`redis://127.0.0.1:${closedPort}`)).rejects.toMatchObject({ code: 'ttl_store_unavailable', status: 503, retryable: true });
  });
});

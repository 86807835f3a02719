import { ManualClock, newId } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository } from '../domain/ports';
import { CachedApiKeyRepository } from './api-key-cache';
import { gatewayCollections } from './collections';
import { StoreApiKeyRepository } from './api-key.repository';

const MERCHANT = 'merchant_a';

const aKey = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: newId(),
  merchant_id: MERCHANT,
  key_hash: `hash-${newId()}`,
  prefix: 'sk_test_abcd',
  mode: 'test',
  scopes: ['merchant'],
  label: null,
  created_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
  expires_at: null,
  ...overrides,
});

/** The real repository over the memory store, counting lookups by hash; `hold` makes the next lookup wait until released. */
async function setup(ttlMs = 1_000, maxEntries?: number) {
  const store = new MemoryDocumentStore();
  for (const spec of gatewayCollections) await store.register(spec);
  const stored = new StoreApiKeyRepository(store);
  const lookups: string[] = [];
  let held: { release: () => void } | null = null;
  let revokeGate: Promise<void> = Promise.resolve();
  const counting: ApiKeyRepository = Object.assign(Object.create(stored) as ApiKeyRepository, {
    async findByHash(hash: string) {
      lookups.push(hash);
      const found = await stored.findByHash(hash);
      if (held) await new Promise<void>((resolve) => (held = { release: resolve }));
      return found;
    },
    async revoke(merchantId: string, id: string, at: string) {
      await revokeGate;
      return stored.revoke(merchantId, id, at);
    },
  });
  const clock = new ManualClock();
  const cache = new CachedApiKeyRepository(counting, { clock, ttlMs, ...(maxEntries ? { maxEntries } : {}) });
  return {
    cache,
    clock,
    lookups,
    hold: () => (held = { release: () => undefined }),
    /** The next revocations write only once the returned function is called. */
    holdRevocations: () => {
      let open = () => undefined as void;
      revokeGate = new Promise<void>((resolve) => (open = resolve));
      return () => open();
    },
    release: () => {
      const current = held;
      held = null;
      current?.release();
    },
  };
}

describe('the API-key cache (a decorator of the ApiKeyRepository port)', () => {
  it('when a key is looked up twice within the ttl, then the store is read once; after the ttl, again', async () => {
    const { cache, clock, lookups } = await setup();
    const key = aKey();
    await cache.insert(key);

    expect(await cache.findByHash(key.key_hash)).toEqual(key);
    clock.advance(999);
    expect(await cache.findByHash(key.key_hash)).toEqual(key);
    expect(lookups).toHaveLength(1);

    clock.advance(1);
    await cache.findByHash(key.key_hash);
    expect(lookups).toHaveLength(2);
  });

  it('when a hash is unknown, then it is never kept, so a key issued afterwards resolves at once', async () => {
    const { cache, lookups } = await setup();
    const key = aKey();

    expect(await cache.findByHash(key.key_hash)).toBeNull();
    await cache.insert(key);

    expect(await cache.findByHash(key.key_hash)).toEqual(key);
    expect(lookups).toHaveLength(2);
  });

  it('when a key is revoked through this repository, then the next lookup sees it revoked at once', async () => {
    const { cache } = await setup(60_000);
    const key = aKey();
    await cache.insert(key);
    await cache.findByHash(key.key_hash);

    await cache.revoke(MERCHANT, key.id, '2026-01-01T00:00:01.000Z');

    expect((await cache.findByHash(key.key_hash))?.revoked_at).toBe('2026-01-01T00:00:01.000Z');
  });

  it('when a lookup raced with a revocation, then its caller gets what it read but it is not kept', async () => {
    const { cache, lookups, hold, release } = await setup(60_000);
    const key = aKey();
    await cache.insert(key);

    hold();
    const racing = cache.findByHash(key.key_hash);
    await new Promise((resolve) => setImmediate(resolve));
    await cache.revoke(MERCHANT, key.id, '2026-01-01T00:00:01.000Z');
    release();

    expect((await racing)?.revoked_at).toBeNull();
    expect((await cache.findByHash(key.key_hash))?.revoked_at).toBe('2026-01-01T00:00:01.000Z');
    expect(lookups).toHaveLength(2);
  });

  it('when a lookup runs while a revocation is being written, then what it read is dropped once the write is done', async () => {
    const { cache, holdRevocations } = await setup(60_000);
    const key = aKey();
    await cache.insert(key);
    const write = holdRevocations();

    const revocation = cache.revoke(MERCHANT, key.id, '2026-01-01T00:00:01.000Z');
    expect((await cache.findByHash(key.key_hash))?.revoked_at).toBeNull();
    write();
    await revocation;

    expect((await cache.findByHash(key.key_hash))?.revoked_at).toBe('2026-01-01T00:00:01.000Z');
  });

  it('when more keys are looked up than it may keep, then the least recently loaded one is read again', async () => {
    const { cache, lookups } = await setup(60_000, 2);
    const keys = [aKey(), aKey(), aKey()];
    for (const key of keys) await cache.insert(key);
    for (const key of keys) await cache.findByHash(key.key_hash);

    await cache.findByHash(keys[2]!.key_hash);
    await cache.findByHash(keys[0]!.key_hash);

    expect(lookups).toEqual([...keys.map((k) => k.key_hash), keys[0]!.key_hash]);
  });

  it('when the ttl is 0, then every lookup reads the store', async () => {
    const { cache, lookups } = await setup(0);
    const key = aKey();
    await cache.insert(key);

    await cache.findByHash(key.key_hash);
    await cache.findByHash(key.key_hash);

    expect(lookups).toHaveLength(2);
  });
});

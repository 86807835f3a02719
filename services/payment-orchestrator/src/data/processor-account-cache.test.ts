import { ManualClock } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import type { ProcessorAccount } from '../domain/processor-accounts/processor-account';
import { orchestratorCollections } from './collections';
import { CachedProcessorAccountRepository } from './processor-account-cache';
import { StoreProcessorAccountRepository } from './processor-account.repository';

const M1 = { merchantId: 'm1', mode: 'test' } as const;

const account = (id: string, name = 'main'): Omit<ProcessorAccount, 'version'> => ({
  mode: 'test',
  id,
  merchant_id: 'm1',
  processor: 'simulator',
  name,
  settings: { base_url: null },
  sealed_credentials: 'sealed',
  credentials_hint: null,
  credentials_updated_at: '2026-11-23T00:00:00.000Z',
  created_at: '2026-11-23T00:00:00.000Z',
  updated_at: '2026-11-23T00:00:00.000Z',
});

async function setup() {
  const store = new MemoryDocumentStore();
  for (const spec of orchestratorCollections) await store.register(spec);
  const clock = new ManualClock();
  const inner = new StoreProcessorAccountRepository(store);
  return { store, clock, inner, cached: new CachedProcessorAccountRepository(inner, clock, { ttlMs: 1_000 }) };
}

describe('the processor account cache', () => {
  it('when another process adds an account, then the list shows it once the ttl has passed, not before', async () => {
    const { store, clock, inner, cached } = await setup();
    expect(await cached.list(M1, 10)).toEqual([]);
    await store.transaction((uow) => inner.insert(uow, account('a1')));
    expect(await cached.list(M1, 10)).toEqual([]);
    clock.advance(1_000);
    expect((await cached.list(M1, 10)).map((a) => a.id)).toEqual(['a1']);
  });

  it('when this process adds, renames or deletes an account, then the next list shows it at once', async () => {
    const { store, cached } = await setup();
    expect(await cached.list(M1, 10)).toEqual([]);
    const added = await store.transaction((uow) => cached.insert(uow, account('a1')));
    expect((await cached.list(M1, 10)).map((a) => a.name)).toEqual(['main']);
    const renamed = await store.transaction((uow) => cached.update(uow, { ...added, name: 'renamed' }));
    expect((await cached.list(M1, 10)).map((a) => a.name)).toEqual(['renamed']);
    await store.transaction((uow) => cached.delete(uow, renamed));
    expect(await cached.list(M1, 10)).toEqual([]);
  });
});

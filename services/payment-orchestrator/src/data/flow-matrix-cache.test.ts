import { ManualClock } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import type { FlowMatrix } from '../domain/flows/flow-matrix';
import { orchestratorCollections } from './collections';
import { CachedFlowMatrixRepository } from './flow-matrix-cache';
import { StoreFlowMatrixRepository } from './flow.repository';

const M1 = { merchantId: 'm1', mode: 'test' } as const;

const matrix = (version: number): FlowMatrix => ({ version, default_flow: 'simulator_auto_capture', rules: [], updated_at: null });

async function setup(ttlMs = 1_000) {
  const store = new MemoryDocumentStore();
  for (const spec of orchestratorCollections) await store.register(spec);
  const clock = new ManualClock();
  const inner = new StoreFlowMatrixRepository(store);
  return { store, clock, inner, cached: new CachedFlowMatrixRepository(inner, clock, { ttlMs }) };
}

describe('the flow matrix cache', () => {
  it('when another process writes a new version, then it is seen once the ttl has passed, not before', async () => {
    const { store, clock, inner, cached } = await setup();
    expect(await cached.current(M1)).toBeNull();
    await store.transaction((uow) => inner.insert(uow, M1, matrix(1)));
    expect(await cached.current(M1)).toBeNull();
    clock.advance(1_000);
    expect((await cached.current(M1))?.version).toBe(1);
  });

  it('when this process writes a new version, then the next read sees it at once', async () => {
    const { store, cached } = await setup();
    expect(await cached.current(M1)).toBeNull();
    await store.transaction((uow) => cached.insert(uow, M1, matrix(1)));
    expect((await cached.current(M1))?.version).toBe(1);
  });

  it('when the ttl is 0, then every read goes to the store', async () => {
    const { store, inner, cached } = await setup(0);
    expect(await cached.current(M1)).toBeNull();
    await store.transaction((uow) => inner.insert(uow, M1, matrix(1)));
    expect((await cached.current(M1))?.version).toBe(1);
  });
});

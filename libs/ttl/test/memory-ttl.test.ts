import { ManualClock, waitFor } from '@vaultline/core';
import { ttlContract } from '@vaultline/ttl/testing';
import { MemoryTtlStore, openTtlStore } from '../src';

ttlContract('memory (manual clock)', async () => {
  const clock = new ManualClock();
  const store = new MemoryTtlStore({ clock });
  return { store, advance: (ms) => clock.advance(ms), cleanup: () => store.close() };
});

ttlContract('memory (system clock)', async () => {
  const store = new MemoryTtlStore();
  return { store, cleanup: () => store.close() };
});

describe('MemoryTtlStore', () => {
  it('when it holds maxEntries and a new key arrives, then the oldest entry is evicted and the size stays at the cap', async () => {
    const store = new MemoryTtlStore({ clock: new ManualClock(), maxEntries: 3 });
    await store.set('a', '1', 60_000);
    await store.increment('b', 60_000);
    await store.setIfAbsent('c', '1', 60_000);

    await store.increment('d', 60_000);
    await store.set('b', '2', 60_000); // an existing key: nothing evicted

    expect(store.size).toBe(3);
    expect(await store.get('a')).toBeNull();
    expect([await store.get('b'), await store.get('c'), await store.get('d')]).toEqual(['2', '1', '1']);
    await store.close();
  });

  it('when a flood of distinct keys arrives, then memory stays bounded by the default cap of 100000 entries', async () => {
    const store = new MemoryTtlStore({ clock: new ManualClock() });
    for (let i = 0; i < 100_010; i++) await store.increment(`flood:${i}`, 60_000);

    expect(store.size).toBe(100_000);
    expect(await store.get('flood:100009')).toBe('1');
    await store.close();
  });

  it('when openTtlStore gets memory://?max_entries=N, then the store is capped at N; a bad N is refused', async () => {
    const store = (await openTtlStore('memory://?max_entries=2')) as MemoryTtlStore;
    for (const key of ['a', 'b', 'c']) await store.set(key, 'v', 60_000);

    expect(store.size).toBe(2);
    await store.close();
    await expect(openTtlStore('memory://?max_entries=lots')).rejects.toThrow(/max_entries/);
  });

  it('when time passes on its clock, then remainingMs shrinks by exactly that much and the value goes at the TTL', async () => {
    const clock = new ManualClock();
    const store = new MemoryTtlStore({ clock });
    await store.set('session', 'v', 1_000);

    clock.advance(400);
    expect(await store.remainingMs('session')).toBe(600);
    clock.advance(599);
    expect(await store.get('session')).toBe('v');
    clock.advance(1);
    expect(await store.get('session')).toBeNull();
    await store.close();
  });

  it('when entries expire, then the periodic sweep drops them so memory does not grow', async () => {
    const store = new MemoryTtlStore({ sweepIntervalMs: 20 });
    try {
      for (let n = 0; n < 100; n++) await store.set(`short:${n}`, 'v', 10);
      await store.set('long', 'v', 60_000);
      expect(store.size).toBe(101);

      await waitFor(() => store.size === 1, 2_000);

      expect(await store.get('long')).toBe('v');
    } finally {
      await store.close();
    }
  });

  it('when a key holds a value that is not a counter, then increment refuses it', async () => {
    const store = new MemoryTtlStore();
    await store.set('k', 'not a number', 60_000);

    await expect(store.increment('k', 1_000)).rejects.toThrow('not a counter');
    await store.close();
  });

  it('when opened from memory:// with a clock, then expiry follows that clock', async () => {
    const clock = new ManualClock();
    const store = await openTtlStore('memory://', { clock });
    await store.set('k', 'v', 1_000);

    clock.advance(1_000);

    expect(await store.get('k')).toBeNull();
    await store.close();
  });

  it('when the URL scheme is unknown, then openTtlStore refuses it', async () => {
    await expect(openTtlStore('memcached://localhost')).rejects.toThrow('unsupported TTL store URL scheme');
  });
});

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

  it("when opened from memory:// with a clock, then expiry follows that clock", async () => {
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

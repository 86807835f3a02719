import { waitFor } from '@vaultline/core';
import type { TtlStore } from '../index';

export interface OpenedTtlStore {
  store: TtlStore;
  /**
   * Moves the adapter's clock (memory with a ManualClock). Without it the suite uses short real
   * TTLs and waits for expiry with waitFor.
   */
  advance?: (ms: number) => void;
  cleanup(): Promise<void>;
}

/** The TtlStore contract (libs/ttl/src/ttl.port.ts), run against every adapter; `open` gives a fresh store. */
export function ttlContract(adapterName: string, open: () => Promise<OpenedTtlStore>): void {
  describe(`TtlStore contract: ${adapterName}`, () => {
    let opened: OpenedTtlStore;
    let store: TtlStore;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });

    afterEach(async () => {
      await opened.cleanup();
    });

    /** Lets `ms` pass: instantly on a manual clock, else by polling until the key is gone. */
    const expire = async (key: string, ms: number): Promise<void> => {
      if (opened.advance) return opened.advance(ms);
      await waitFor(async () => (await store.remainingMs(key)) === null, ms + 2_000);
    };

    it('when a value is set, then it is readable before its TTL and gone after it', async () => {
      await store.set('security-code:1', 'sealed-value', 300);

      expect(await store.get('security-code:1')).toBe('sealed-value');
      await expire('security-code:1', 300);

      expect(await store.get('security-code:1')).toBeNull();
      expect(await store.remainingMs('security-code:1')).toBeNull();
    });

    it('when a value is set, then remainingMs is positive and never more than the TTL', async () => {
      await store.set('session:1', 'v', 60_000);

      const remaining = await store.remainingMs('session:1');

      expect(remaining).not.toBeNull();
      expect(remaining!).toBeGreaterThan(55_000);
      expect(remaining!).toBeLessThanOrEqual(60_000);
    });

    it('when a key was never set, then get and remainingMs answer null', async () => {
      expect(await store.get('absent')).toBeNull();
      expect(await store.remainingMs('absent')).toBeNull();
    });

    it('when a key is set again, then the new value and the new TTL replace the old ones', async () => {
      await store.set('k', 'old', 300);
      await store.set('k', 'new', 60_000);

      expect(await store.get('k')).toBe('new');
      expect(await store.remainingMs('k')).toBeGreaterThan(55_000);
    });

    it('when a key is deleted, then it is gone at once, and deleting a missing key is harmless', async () => {
      await store.set('k', 'v', 60_000);
      await store.set('other', 'stays', 60_000);

      await store.delete('k');
      await store.delete('never-set');

      expect(await store.get('k')).toBeNull();
      expect(await store.remainingMs('k')).toBeNull();
      expect(await store.get('other')).toBe('stays');
    });

    it('when a counter is incremented within its window, then it counts up and expires windowMs after the first increment', async () => {
      expect(await store.increment('rate:m1', 60_000)).toBe(1);
      const firstRemaining = (await store.remainingMs('rate:m1'))!;
      expect(await store.increment('rate:m1', 60_000)).toBe(2);
      expect(await store.increment('rate:m1', 60_000)).toBe(3);

      expect(firstRemaining).toBeGreaterThan(55_000);
      expect(firstRemaining).toBeLessThanOrEqual(60_000);
      expect(await store.remainingMs('rate:m1')).toBeLessThanOrEqual(firstRemaining);
      expect(await store.increment('rate:m2', 60_000)).toBe(1);
    });

    it('when a counter window has passed, then the next increment starts a new window at 1', async () => {
      expect(await store.increment('rate:m1', 300)).toBe(1);
      expect(await store.increment('rate:m1', 300)).toBe(2);

      await expire('rate:m1', 300);

      expect(await store.increment('rate:m1', 300)).toBe(1);
      expect(await store.remainingMs('rate:m1')).toBeGreaterThan(0);
    });

    it('when a later increment asks for a longer window, then the running window is not extended', async () => {
      await store.increment('rate:m3', 1_000);

      await store.increment('rate:m3', 60_000);

      expect(await store.remainingMs('rate:m3')).toBeLessThanOrEqual(1_000);
    });

    it('when a TTL is zero or negative, then the call is refused', async () => {
      await expect(store.set('k', 'v', 0)).rejects.toThrow();
      await expect(store.set('k', 'v', -5)).rejects.toThrow();
      await expect(store.increment('k', 0)).rejects.toThrow();
      expect(await store.get('k')).toBeNull();
    });

    it('when the store is reachable, then ping resolves', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('when setIfAbsent finds the key absent, then it sets the value with its TTL and answers true', async () => {
      expect(await store.setIfAbsent('claim:1', 'first', 60_000)).toBe(true);

      expect(await store.get('claim:1')).toBe('first');
      expect(await store.remainingMs('claim:1')).toBeGreaterThan(55_000);
    });

    it('when setIfAbsent finds the key present, then it answers false and leaves the value and its TTL alone', async () => {
      await store.set('claim:1', 'first', 60_000);

      expect(await store.setIfAbsent('claim:1', 'second', 300)).toBe(false);

      expect(await store.get('claim:1')).toBe('first');
      expect(await store.remainingMs('claim:1')).toBeGreaterThan(55_000);
    });

    it('when the earlier value has expired or was deleted, then setIfAbsent claims the key again', async () => {
      await store.setIfAbsent('claim:expiring', 'first', 300);
      await store.setIfAbsent('claim:deleted', 'first', 60_000);

      await expire('claim:expiring', 300);
      await store.delete('claim:deleted');

      expect(await store.setIfAbsent('claim:expiring', 'again', 60_000)).toBe(true);
      expect(await store.setIfAbsent('claim:deleted', 'again', 60_000)).toBe(true);
      expect(await store.get('claim:expiring')).toBe('again');
    });

    it('when 50 callers race setIfAbsent for one key, then exactly one of them wins', async () => {
      const outcomes = await Promise.all(Array.from({ length: 50 }, (_, n) => store.setIfAbsent('claim:race', `caller-${n}`, 60_000)));

      const winners = outcomes.flatMap((won, n) => (won ? [n] : []));
      expect(winners).toHaveLength(1);
      expect(await store.get('claim:race')).toBe(`caller-${winners[0]}`);
    });

    it('when a token bucket is taken from, then it allows burst requests, then refuses with the time until the next token', async () => {
      const bucket = { ratePerSecond: 1, burst: 3 };
      const takes = [];
      for (let n = 0; n < 4; n++) takes.push(await store.takeToken('bucket:k1', bucket));

      expect(takes.map((t) => t.allowed)).toEqual([true, true, true, false]);
      expect(takes.map((t) => t.remaining)).toEqual([2, 1, 0, 0]);
      expect(takes[3]!.retryAfterMs).toBeGreaterThan(0);
      expect(takes[3]!.retryAfterMs).toBeLessThanOrEqual(1_000);
      expect(takes[2]!.resetMs).toBeGreaterThan(2_000);
      expect(takes[2]!.resetMs).toBeLessThanOrEqual(3_000);
      expect((await store.takeToken('bucket:k2', bucket)).remaining).toBe(2);
    });

    it('when a refused bucket waits for its refill, then it allows again', async () => {
      const bucket = { ratePerSecond: 10, burst: 1 };
      expect((await store.takeToken('bucket:refill', bucket)).allowed).toBe(true);
      const refused = await store.takeToken('bucket:refill', bucket);
      expect(refused.allowed).toBe(false);

      if (opened.advance) opened.advance(refused.retryAfterMs);
      else await new Promise((resolve) => setTimeout(resolve, refused.retryAfterMs + 20));

      expect((await store.takeToken('bucket:refill', bucket)).allowed).toBe(true);
    });

    it('when 50 callers race for a bucket of 20, then exactly 20 of them get a token', async () => {
      const takes = await Promise.all(Array.from({ length: 50 }, () => store.takeToken('bucket:race', { ratePerSecond: 0.001, burst: 20 })));

      expect(takes.filter((t) => t.allowed)).toHaveLength(20);
    });

    it('when a bucket shape is impossible, then the call is refused', async () => {
      await expect(store.takeToken('bucket:bad', { ratePerSecond: 0, burst: 5 })).rejects.toThrow();
      await expect(store.takeToken('bucket:bad', { ratePerSecond: 5, burst: 0 })).rejects.toThrow();
    });

    it('when setIfAbsent is given a TTL of zero, then the call is refused and nothing is set', async () => {
      await expect(store.setIfAbsent('claim:zero', 'v', 0)).rejects.toThrow();
      expect(await store.get('claim:zero')).toBeNull();
    });
  });
}

import type { Clock } from '@vaultline/core';
import type { TtlStore } from './ttl.port';
import { MemoryTtlStore } from './memory-ttl-store';
import { RedisTtlStore } from './redis-ttl-store';

export interface OpenTtlStoreOptions {
  /** Redis only: prefix for every key. */
  keyPrefix?: string;
  /** Memory only: the clock expiry is measured against. */
  clock?: Clock;
}

/**
 * Picks the adapter from a URL:
 *   memory://                 in-process (embedded profile, tests)
 *   redis://host:port[/db]    Redis (rediss:// for TLS)
 * A Redis store is pinged before it is returned, so a wrong URL fails at start.
 */
export async function openTtlStore(url: string, options: OpenTtlStoreOptions = {}): Promise<TtlStore> {
  if (url.startsWith('memory:')) return new MemoryTtlStore({ clock: options.clock });
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const store = new RedisTtlStore(url, { keyPrefix: options.keyPrefix });
    try {
      await store.ping();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
  throw new Error(`unsupported TTL store URL scheme: ${url.split(':')[0]}: (use memory:// or redis://)`);
}

import type { Clock } from '@vaultline/core';
import type { TtlStore } from './ttl.port';
import { MemoryTtlStore } from './memory-ttl-store';
import { RedisTtlStore } from './redis-ttl-store';

export interface OpenTtlStoreOptions {
  /** Redis only: prefix for every key. */
  keyPrefix?: string;
  /** Memory only: the clock expiry is measured against. */
  clock?: Clock;
  /** Redis only (rediss://): trust this CA (PEM) instead of the system's. */
  tlsCa?: Buffer;
}

/**
 * Picks the adapter from a URL:
 *   memory://[?max_entries=N] in-process (embedded profile, tests); at most N entries (default 100000)
 *   redis://host:port[/db]    Redis (rediss:// for TLS)
 * A Redis store is pinged before it is returned, so a wrong URL fails at start.
 */
export async function openTtlStore(url: string, options: OpenTtlStoreOptions = {}): Promise<TtlStore> {
  if (url.startsWith('memory:')) return new MemoryTtlStore({ clock: options.clock, maxEntries: maxEntriesOf(url) });
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const store = new RedisTtlStore(url, { keyPrefix: options.keyPrefix, ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}) });
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

/** `max_entries` of a memory:// URL, when given: a whole number of at least 1. */
function maxEntriesOf(url: string): number | undefined {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const value = new URLSearchParams(query).get('max_entries');
  if (value === null) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`TTL_URL: max_entries must be a whole number of at least 1 (got "${value}")`);
  return Number(value);
}

import type { Clock } from '@vaultline/core';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository, PageOf, PageRequest } from '../domain/ports';
import { ExpiringEntries } from './expiring-entries';

/** How long a key found by hash is reused without reading the store (how late another instance's revocation is seen). */
export const DEFAULT_KEY_CACHE_TTL_MS = 2_000;

/**
 * Keys found by hash, kept in memory for a short time: every merchant request looks its key up, so
 * a request costs no store read. A revocation through this repository empties the cache before and
 * after its write, and a lookup that raced with it is not kept, so revocation is immediate on this
 * instance; another gateway instance sees it at the latest `ttlMs` later. Unknown hashes are never
 * kept (a guessed key costs a store read every time, and a key issued later resolves at once).
 */
export class CachedApiKeyRepository implements ApiKeyRepository {
  private readonly byHash: ExpiringEntries<ApiKeyRecord>;

  constructor(
    private readonly inner: ApiKeyRepository,
    options: { clock: Clock; ttlMs?: number; maxEntries?: number },
  ) {
    this.byHash = new ExpiringEntries({ clock: options.clock, ttlMs: options.ttlMs ?? DEFAULT_KEY_CACHE_TTL_MS, maxEntries: options.maxEntries ?? 10_000 });
  }

  findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.byHash.through(keyHash, () => this.inner.findByHash(keyHash));
  }

  async revoke(merchantId: string, id: string, at: string): Promise<ApiKeyRecord> {
    this.byHash.invalidateAll();
    try {
      return await this.inner.revoke(merchantId, id, at);
    } finally {
      // Again after the write: a lookup that read the key meanwhile must not keep it.
      this.byHash.invalidateAll();
    }
  }

  insert(key: ApiKeyRecord): Promise<void> {
    return this.inner.insert(key);
  }

  get(merchantId: string, id: string): Promise<ApiKeyRecord | null> {
    return this.inner.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<PageOf<ApiKeyRecord>> {
    return this.inner.list(merchantId, page);
  }
}

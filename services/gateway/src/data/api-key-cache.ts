import type { ApiKeyMode } from '@vaultline/auth';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository, PageOf, PageRequest } from '../domain/ports';
import { ExpiringEntries, type ExpiringEntriesOptions } from './expiring-entries';

/**
 * Keys found by hash, kept in memory for a short time: every merchant request looks its key up, so
 * a request costs no store read. A revocation through this repository empties the cache before and
 * after its write, and a lookup that raced with it is not kept, so revocation is immediate on this
 * instance; another gateway instance sees it at the latest `ttlMs` (2 s by default) later. Unknown
 * hashes are never kept (a guessed key costs a store read every time; a key issued later resolves
 * at once).
 */
export class CachedApiKeyRepository implements ApiKeyRepository {
  private readonly byHash: ExpiringEntries<ApiKeyRecord>;

  constructor(
    private readonly inner: ApiKeyRepository,
    options: ExpiringEntriesOptions,
  ) {
    this.byHash = new ExpiringEntries(options);
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

  /** The old key's new expiry holds on this instance at once, as a revocation does. */
  async roll(merchantId: string, oldId: string, oldExpiresAt: string, next: ApiKeyRecord): Promise<ApiKeyRecord> {
    this.byHash.invalidateAll();
    try {
      return await this.inner.roll(merchantId, oldId, oldExpiresAt, next);
    } finally {
      this.byHash.invalidateAll();
    }
  }

  insert(key: ApiKeyRecord): Promise<void> {
    return this.inner.insert(key);
  }

  get(merchantId: string, id: string): Promise<ApiKeyRecord | null> {
    return this.inner.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest, mode?: ApiKeyMode): Promise<PageOf<ApiKeyRecord>> {
    return this.inner.list(merchantId, page, mode);
  }
}

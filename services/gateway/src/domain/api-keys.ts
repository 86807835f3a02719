import { apiKeyMode, apiKeyPrefix, generateApiKey, hashApiKey, SCOPES, type ApiKeyMode } from '@vaultline/auth';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, constantTimeEquals, newId, type Clock } from '@vaultline/core';
import type { ApiKeyRecord, ResolvedKey } from './merchant';
import type { ApiKeyRepository, MerchantRepository, PageOf, PageRequest } from './ports';

/** Supplies the pepper once start() has loaded it. */
export type PepperSource = () => string;

export interface IssueKeyOptions {
  mode?: ApiKeyMode;
  label?: string | null;
  scopes?: string[];
  expiresAt?: string | null;
}

/** How long a resolved key may be reused without reading the store (other gateway instances' revocations). */
export const DEFAULT_KEY_CACHE_TTL_MS = 2_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

interface CachedKey {
  record: ApiKeyRecord;
  merchantId: string;
  cardDataAccess: boolean;
  cachedAt: number;
}

/**
 * Issuing, checking, listing and revoking API keys. Keys leave this module in clear only when issued.
 *
 * Valid keys are remembered by hash for a short time (`keyCacheTtlMs`), so a request costs no store
 * read. A revocation through this instance empties the cache, and a lookup that raced with it is
 * not cached, so revocation stays immediate here; another gateway instance sees it within the TTL.
 * Expiry is checked on every request against the cached record. Invalid keys are never cached.
 */
export class ApiKeys {
  private readonly cache = new Map<string, CachedKey>();
  /** Bumped by every revocation; a lookup started before one must not fill the cache. */
  private generation = 0;
  private readonly cacheTtlMs: number;

  constructor(
    private readonly deps: { merchants: MerchantRepository; keys: ApiKeyRepository; clock: Clock; pepper: PepperSource; keyCacheTtlMs?: number },
  ) {
    this.cacheTtlMs = deps.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS;
  }

  /** A new key record and the key itself (not stored). `key` lets the bootstrap choose it. */
  mint(merchantId: string, options: IssueKeyOptions = {}, key?: string): { record: ApiKeyRecord; apiKey: string } {
    const mode = options.mode ?? (key ? apiKeyMode(key) : undefined) ?? 'test';
    const apiKey = key ?? generateApiKey(mode);
    const record: ApiKeyRecord = {
      id: newId(),
      merchant_id: merchantId,
      key_hash: hashApiKey(apiKey, this.deps.pepper()),
      prefix: apiKeyPrefix(apiKey),
      mode,
      scopes: options.scopes ?? [SCOPES.merchant],
      label: options.label ?? null,
      created_at: this.deps.clock.now().toISOString(),
      revoked_at: null,
      expires_at: options.expiresAt ?? null,
    };
    return { record, apiKey };
  }

  async issue(merchantId: string, options: IssueKeyOptions = {}): Promise<{ record: ApiKeyRecord; apiKey: string }> {
    if (!(await this.deps.merchants.get(merchantId))) throw new NotFoundError('merchant');
    const minted = this.mint(merchantId, options);
    await this.deps.keys.insert(minted.record);
    return minted;
  }

  /**
   * Resolves X-API-Key to the merchant and its scopes: lookup by hash, then a constant-time
   * comparison. Ordinary keys get `merchant`, plus `card_data` while the merchant has card data
   * access; import-job keys keep exactly their stored scopes.
   */
  async authenticate(apiKey: string | undefined): Promise<ResolvedKey> {
    if (!apiKey) throw new UnauthorizedError('A valid API key is required in the X-API-Key header.', 'missing_api_key');
    const invalid = (detail: string) => new UnauthorizedError(detail, 'invalid_api_key');
    if (!apiKeyMode(apiKey) || apiKey.length > 200) throw invalid('The API key is not valid.');
    const hash = hashApiKey(apiKey, this.deps.pepper());
    const nowMs = Date.now();
    let cached = this.cache.get(hash);
    if (cached && nowMs - cached.cachedAt >= this.cacheTtlMs) {
      this.cache.delete(hash);
      cached = undefined;
    }
    if (!cached) {
      const generation = this.generation;
      const record = await this.deps.keys.findByHash(hash);
      if (!record || !constantTimeEquals(record.key_hash, hash)) throw invalid('The API key is not valid.');
      if (record.revoked_at) throw invalid('The API key has been revoked.');
      const merchant = await this.deps.merchants.get(record.merchant_id);
      if (!merchant) throw invalid('The API key is not valid.');
      cached = { record, merchantId: merchant.id, cardDataAccess: merchant.card_data_access, cachedAt: nowMs };
      if (this.cacheTtlMs > 0 && generation === this.generation) {
        if (this.cache.size >= KEY_CACHE_MAX_ENTRIES) this.cache.clear();
        this.cache.set(hash, cached);
      }
    }
    const { record } = cached;
    const now = this.deps.clock.now().toISOString();
    if (record.expires_at && record.expires_at <= now) throw invalid('The API key has expired.');
    const scopes = record.scopes.includes(SCOPES.merchant)
      ? [SCOPES.merchant, ...(cached.cardDataAccess ? [SCOPES.cardData] : [])]
      : [...record.scopes];
    return { merchantId: cached.merchantId, keyId: record.id, scopes, mode: record.mode };
  }

  async list(merchantId: string, page: PageRequest): Promise<PageOf<ApiKeyRecord>> {
    if (!(await this.deps.merchants.get(merchantId))) throw new NotFoundError('merchant');
    return this.deps.keys.list(merchantId, page);
  }

  /** Revokes a key. `onlyScope` limits which keys a caller may revoke (the importer: its import keys). */
  async revoke(merchantId: string, keyId: string, onlyScope?: string): Promise<ApiKeyRecord> {
    const record = await this.deps.keys.get(merchantId, keyId);
    if (!record) throw new NotFoundError('api_key');
    if (onlyScope && !(record.scopes.length === 1 && record.scopes[0] === onlyScope)) {
      throw new ForbiddenError(`Only keys with the single scope ${onlyScope} can be revoked here.`, 'insufficient_scope');
    }
    if (record.revoked_at) throw new ConflictError('api_key_revoked', 'The API key is already revoked.');
    this.forgetResolvedKeys();
    try {
      return await this.deps.keys.revoke(merchantId, keyId, this.deps.clock.now().toISOString());
    } finally {
      // Again after the write: a lookup that read the key meanwhile must not keep it.
      this.forgetResolvedKeys();
    }
  }

  private forgetResolvedKeys(): void {
    this.generation++;
    this.cache.clear();
  }
}

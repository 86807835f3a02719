import type { ApiKeyRecord, Merchant } from '../domain/merchant';
import type { MerchantRepository, PageOf, PageRequest } from '../domain/ports';
import type { RateLimit } from '../domain/rate-limit';
import { ExpiringEntries, type ExpiringEntriesOptions } from './expiring-entries';

/**
 * Merchants by id, kept in memory for a short time beside the API-key cache: every merchant request
 * reads its merchant (for card_data_access and its rate limit). A change through this instance
 * invalidates at once; another instance's change is seen within the cache's lifetime. Unknown ids are
 * never kept.
 */
export class CachedMerchantRepository implements MerchantRepository {
  private readonly byId: ExpiringEntries<Merchant>;

  constructor(
    private readonly inner: MerchantRepository,
    options: ExpiringEntriesOptions,
  ) {
    this.byId = new ExpiringEntries(options);
  }

  get(id: string): Promise<Merchant | null> {
    return this.byId.through(id, () => this.inner.get(id));
  }

  list(page: PageRequest): Promise<PageOf<Merchant>> {
    return this.inner.list(page);
  }

  async setRateLimit(id: string, rateLimit: RateLimit | undefined): Promise<Merchant | null> {
    this.byId.invalidateAll();
    const updated = await this.inner.setRateLimit(id, rateLimit);
    this.byId.invalidateAll();
    return updated;
  }

  createWithKey(merchant: Merchant, key: ApiKeyRecord): Promise<void> {
    return this.inner.createWithKey(merchant, key);
  }
}

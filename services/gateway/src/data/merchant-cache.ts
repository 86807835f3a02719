import type { ApiKeyRecord, Merchant } from '../domain/merchant';
import type { MerchantRepository, PageOf, PageRequest } from '../domain/ports';
import { ExpiringEntries, type ExpiringEntriesOptions } from './expiring-entries';

/**
 * Merchants by id, kept in memory for a short time beside the API-key cache: every merchant request
 * reads its merchant (for card_data_access). Merchants are never changed or deleted once created, so
 * nothing invalidates; unknown ids are never kept.
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

  createWithKey(merchant: Merchant, key: ApiKeyRecord): Promise<void> {
    return this.inner.createWithKey(merchant, key);
  }
}

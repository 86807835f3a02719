import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { ApiKeyRecord, Merchant } from '../domain/merchant';
import type { MerchantRepository, PageOf, PageRequest } from '../domain/ports';
import type { RateLimit } from '../domain/rate-limit';
import { MERCHANTS } from './collections';
import { insertKey } from './api-key.repository';

type MerchantDocument = StoredDocument & Omit<Merchant, 'id'>;

const toMerchant = (doc: MerchantDocument): Merchant => ({
  id: doc.id,
  name: doc.name,
  card_data_access: doc.card_data_access,
  created_at: doc.created_at,
  ...(doc.rate_limit ? { rate_limit: { per_second: doc.rate_limit.per_second, burst: doc.rate_limit.burst } } : {}),
});

export class StoreMerchantRepository implements MerchantRepository {
  constructor(private readonly store: DocumentStore) {}

  async get(id: string): Promise<Merchant | null> {
    const doc = await this.store.collection<MerchantDocument>(MERCHANTS).get(SYSTEM_SCOPE, id);
    return doc ? toMerchant(doc) : null;
  }

  async list(page: PageRequest): Promise<PageOf<Merchant>> {
    const result = await this.store.collection<MerchantDocument>(MERCHANTS).list(SYSTEM_SCOPE, {}, page);
    return { ...result, items: result.items.map(toMerchant) };
  }

  async setRateLimit(id: string, rateLimit: RateLimit | undefined): Promise<Merchant | null> {
    const merchants = this.store.collection<MerchantDocument>(MERCHANTS);
    const doc = await merchants.get(SYSTEM_SCOPE, id);
    if (!doc) return null;
    const { rate_limit: _previous, ...rest } = doc;
    const next: MerchantDocument = rateLimit ? { ...rest, rate_limit: rateLimit } : rest;
    // The version read is checked at commit: two operators changing one merchant at once cannot both win silently.
    await this.store.transaction((uow) => {
      uow.update<MerchantDocument>(MERCHANTS, next);
    });
    return toMerchant(next);
  }

  async createWithKey(merchant: Merchant, key: ApiKeyRecord): Promise<void> {
    await this.store.transaction((uow) => {
      uow.insert<MerchantDocument>(MERCHANTS, { ...merchant, merchant_id: SYSTEM_SCOPE });
      insertKey(uow, key);
    });
  }
}

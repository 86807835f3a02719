import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { ApiKeyRecord, Merchant } from '../domain/merchant';
import type { MerchantRepository, PageOf, PageRequest } from '../domain/ports';
import { MERCHANTS } from './collections';
import { insertKey } from './api-key.repository';

type MerchantDocument = StoredDocument & Omit<Merchant, 'id'>;

const toMerchant = (doc: MerchantDocument): Merchant => ({ id: doc.id, name: doc.name, card_data_access: doc.card_data_access, created_at: doc.created_at });

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

  async createWithKey(merchant: Merchant, key: ApiKeyRecord): Promise<void> {
    await this.store.transaction((uow) => {
      uow.insert<MerchantDocument>(MERCHANTS, { ...merchant, merchant_id: SYSTEM_SCOPE });
      insertKey(uow, key);
    });
  }
}


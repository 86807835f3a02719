import { newId, type Clock } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, StoredDocument } from '@vaultline/store';
import type { MerchantDestinationSource } from '../domain/destination-directory';
import { ruleFromUrl } from '../domain/destination-policy';
import { DESTINATIONS } from './collections';

export interface DestinationDocument extends StoredDocument {
  url: string;
  created_at: string;
}

/** Per-merchant destinations added by operators through the admin API; always scoped by merchant id. */
export function createDestinationRepository(store: DocumentStore, clock: Clock) {
  const collection = () => store.collection<DestinationDocument>(DESTINATIONS);
  const source: MerchantDestinationSource = {
    async rulesOf(merchantId) {
      const page = await collection().list(merchantId, {}, { limit: 200 });
      return page.items.map((doc) => ruleFromUrl(`merchant:${doc.id}`, doc.url, false));
    },
  };
  return {
    ...source,
    async add(merchantId: string, url: string): Promise<DestinationDocument> {
      return store.transaction((uow) =>
        uow.insert<DestinationDocument>(DESTINATIONS, { id: newId(), merchant_id: merchantId, url, created_at: clock.now().toISOString() }),
      );
    },
    list(merchantId: string, page: PageRequest): Promise<Page<DestinationDocument>> {
      return collection().list(merchantId, {}, page);
    },
    get(merchantId: string, id: string): Promise<DestinationDocument | null> {
      return collection().get(merchantId, id);
    },
    async remove(merchantId: string, id: string): Promise<boolean> {
      const existing = await collection().get(merchantId, id);
      if (!existing) return false;
      await store.transaction((uow) => uow.delete(DESTINATIONS, merchantId, id, existing.version));
      return true;
    },
  };
}

export type DestinationRepository = ReturnType<typeof createDestinationRepository>;

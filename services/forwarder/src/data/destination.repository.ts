import type { Mode } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, ScopedDocument, UnitOfWork } from '@vaultline/store';
import type { MerchantDestination } from '../domain/merchant-destination';
import type { DestinationRepository } from '../domain/ports';
import { DESTINATIONS } from './collections';

/**
 * A destination as stored. Destinations are operator settings of a merchant, not resources of one
 * mode: the key mode they serve is `key_mode` (null: both), and every one is kept in the merchant's
 * test-mode partition (`mode` is the store's, always test). Records written before modes existed kept
 * the key mode in `mode` and no `key_mode`: they are read as such.
 */
interface StoredDestination extends Omit<MerchantDestination, 'mode'>, ScopedDocument {
  key_mode?: Mode | null;
}

const PARTITION_MODE: Mode = 'test';

function toDestination({ key_mode: keyMode, mode: legacyKeyMode, ...stored }: StoredDestination): MerchantDestination {
  return { ...stored, mode: keyMode !== undefined ? keyMode : (legacyKeyMode ?? null) };
}

/** Per-merchant destinations added by operators through the admin API; always scoped by merchant id. */
export class StoreDestinationRepository implements DestinationRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<StoredDestination>(DESTINATIONS);
  }

  private scope(merchantId: string) {
    return { merchantId, mode: PARTITION_MODE };
  }

  async get(merchantId: string, id: string): Promise<MerchantDestination | null> {
    const stored = await this.collection.get(this.scope(merchantId), id);
    return stored ? toDestination(stored) : null;
  }

  async list(merchantId: string, page: PageRequest): Promise<Page<MerchantDestination>> {
    const result = await this.collection.list(this.scope(merchantId), {}, page);
    return { ...result, items: result.items.map(toDestination) };
  }

  insert(uow: UnitOfWork, { mode: keyMode, ...destination }: Omit<MerchantDestination, 'version'>): MerchantDestination {
    return toDestination(uow.insert<StoredDestination>(DESTINATIONS, { ...destination, mode: PARTITION_MODE, key_mode: keyMode ?? null }));
  }

  delete(uow: UnitOfWork, destination: MerchantDestination): void {
    uow.delete(DESTINATIONS, this.scope(destination.merchant_id), destination.id, destination.version);
  }
}

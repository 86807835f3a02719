import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { MerchantDestination } from '../domain/merchant-destination';
import type { DestinationRepository } from '../domain/ports';
import { DESTINATIONS } from './collections';

/** Per-merchant destinations added by operators through the admin API; always scoped by merchant id. */
export class StoreDestinationRepository implements DestinationRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<MerchantDestination>(DESTINATIONS);
  }

  get(merchantId: string, id: string): Promise<MerchantDestination | null> {
    return this.collection.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<Page<MerchantDestination>> {
    return this.collection.list(merchantId, {}, page);
  }

  insert(uow: UnitOfWork, destination: Omit<MerchantDestination, 'version'>): MerchantDestination {
    return uow.insert<MerchantDestination>(DESTINATIONS, destination);
  }

  delete(uow: UnitOfWork, destination: MerchantDestination): void {
    uow.delete(DESTINATIONS, destination.merchant_id, destination.id, destination.version);
  }
}

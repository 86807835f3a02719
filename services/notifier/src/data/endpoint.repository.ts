import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { EndpointRepository } from '../domain/ports';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { ENDPOINTS } from './collections';

export class StoreEndpointRepository implements EndpointRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<WebhookEndpoint>(ENDPOINTS);
  }

  get(merchantId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.collection.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.collection.list(merchantId, {}, page);
  }

  count(merchantId: string): Promise<number> {
    return this.collection.count(merchantId, {});
  }

  /** Every enabled endpoint of the merchant, at most `limit` (the per-merchant endpoint limit). */
  async listEnabled(merchantId: string, limit: number): Promise<WebhookEndpoint[]> {
    return (await this.collection.list(merchantId, { enabled: true }, { limit })).items;
  }

  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint {
    return uow.insert<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint {
    return uow.update<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void {
    uow.delete(ENDPOINTS, endpoint.merchant_id, endpoint.id, endpoint.version);
  }
}

import { scopeOfDocument, type Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { EndpointRepository } from '../domain/ports';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { ENDPOINTS } from './collections';

export class StoreEndpointRepository implements EndpointRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<WebhookEndpoint>(ENDPOINTS);
  }

  get(scope: Scope, id: string): Promise<WebhookEndpoint | null> {
    return this.collection.get(scope, id);
  }

  list(scope: Scope, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.collection.list(scope, {}, page);
  }

  count(scope: Scope): Promise<number> {
    return this.collection.count(scope, {});
  }

  /** Every enabled endpoint of the merchant in that mode, at most `limit` (the per-merchant endpoint limit). */
  async listEnabled(scope: Scope, limit: number): Promise<WebhookEndpoint[]> {
    return (await this.collection.list(scope, { enabled: true }, { limit })).items;
  }

  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint {
    return uow.insert<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint {
    return uow.update<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void {
    uow.delete(ENDPOINTS, scopeOfDocument(endpoint), endpoint.id, endpoint.version);
  }
}

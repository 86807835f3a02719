import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { ENDPOINTS } from './collections';
import { EnabledEndpointsCache } from './enabled-endpoints-cache';

export interface EndpointRepositoryOptions {
  /** How long a merchant's enabled endpoints are served from memory (0: always read). */
  enabledCacheMs?: number;
  nowMs?: () => number;
}

export class EndpointRepository {
  private readonly enabled: EnabledEndpointsCache;

  constructor(
    private readonly store: DocumentStore,
    options: EndpointRepositoryOptions = {},
  ) {
    this.enabled = new EnabledEndpointsCache((merchantId, limit) => this.readEnabled(merchantId, limit), {
      ttlMs: options.enabledCacheMs ?? 0,
      ...(options.nowMs ? { nowMs: options.nowMs } : {}),
    });
  }

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

  /** Every enabled endpoint of the merchant (bounded by the per-merchant endpoint limit); see EnabledEndpointsCache. */
  listEnabled(merchantId: string, limit: number): Promise<WebhookEndpoint[]> {
    return this.enabled.get(merchantId, limit);
  }

  // Every write drops the merchant's cached list when it is buffered and again once it committed,
  // so no read that overlapped the commit is kept.
  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint {
    this.invalidateAround(uow, endpoint.merchant_id);
    return uow.insert<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint {
    this.invalidateAround(uow, endpoint.merchant_id);
    return uow.update<WebhookEndpoint>(ENDPOINTS, endpoint);
  }

  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void {
    this.invalidateAround(uow, endpoint.merchant_id);
    uow.delete(ENDPOINTS, endpoint.merchant_id, endpoint.id, endpoint.version);
  }

  private async readEnabled(merchantId: string, limit: number): Promise<WebhookEndpoint[]> {
    const page = await this.collection.list(merchantId, { enabled: true }, { limit });
    return page.items;
  }

  private invalidateAround(uow: UnitOfWork, merchantId: string): void {
    this.enabled.invalidate(merchantId);
    uow.afterCommit(() => this.enabled.invalidate(merchantId));
  }
}

import type { Clock } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { EndpointRepository } from '../domain/ports';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';

export interface EnabledEndpointsCacheOptions {
  /** How long a merchant's list is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Most merchants kept; the least recently loaded one goes first. */
  maxMerchants?: number;
  nowMs?: () => number;
}

interface Entry {
  endpoints: readonly WebhookEndpoint[];
  limit: number;
  expiresAt: number;
}

type Load = (merchantId: string, limit: number) => Promise<WebhookEndpoint[]>;

/**
 * The enabled endpoints of a merchant, kept in memory for a short time: every consumed event
 * needs them, and they change rarely. A write through this process drops the merchant's entry at
 * once; a write by another process is seen at the latest `ttlMs` later. A list whose load overlapped
 * a write is returned to its caller but never kept.
 */
export class EnabledEndpointsCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts invalidations (of any merchant): a load during which it moved is not kept. Writes are rare. */
  private invalidations = 0;
  private readonly maxMerchants: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly load: Load,
    private readonly options: EnabledEndpointsCacheOptions,
  ) {
    this.maxMerchants = options.maxMerchants ?? 10_000;
    this.nowMs = options.nowMs ?? Date.now;
  }

  async get(merchantId: string, limit: number): Promise<WebhookEndpoint[]> {
    if (this.options.ttlMs <= 0) return this.load(merchantId, limit);
    const cached = this.entries.get(merchantId);
    if (cached && cached.limit === limit && cached.expiresAt > this.nowMs()) return [...cached.endpoints];
    const seen = this.invalidations;
    const endpoints = await this.load(merchantId, limit);
    if (this.invalidations === seen) this.keep(merchantId, { endpoints: Object.freeze([...endpoints]), limit, expiresAt: this.nowMs() + this.options.ttlMs });
    return endpoints;
  }

  /** Called for every write to a merchant's endpoints (before and after its commit). */
  invalidate(merchantId: string): void {
    this.entries.delete(merchantId);
    this.invalidations++;
  }

  private keep(merchantId: string, entry: Entry): void {
    this.entries.delete(merchantId);
    this.entries.set(merchantId, entry);
    if (this.entries.size > this.maxMerchants) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * The endpoint repository with the enabled-endpoints cache in front of listEnabled. Every write
 * drops the merchant's cached list when it is buffered and again once it committed, so no read
 * that overlapped the commit is kept.
 */
export class CachedEndpointRepository implements EndpointRepository {
  private readonly enabled: EnabledEndpointsCache;

  constructor(
    private readonly endpoints: EndpointRepository,
    options: { ttlMs: number; clock: Clock },
  ) {
    this.enabled = new EnabledEndpointsCache((merchantId, limit) => endpoints.listEnabled(merchantId, limit), {
      ttlMs: options.ttlMs,
      nowMs: () => options.clock.now().getTime(),
    });
  }

  get(merchantId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.endpoints.list(merchantId, page);
  }

  count(merchantId: string): Promise<number> {
    return this.endpoints.count(merchantId);
  }

  listEnabled(merchantId: string, limit: number): Promise<WebhookEndpoint[]> {
    return this.enabled.get(merchantId, limit);
  }

  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint {
    this.invalidateAround(uow, endpoint.merchant_id);
    return this.endpoints.insert(uow, endpoint);
  }

  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint {
    this.invalidateAround(uow, endpoint.merchant_id);
    return this.endpoints.update(uow, endpoint);
  }

  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void {
    this.invalidateAround(uow, endpoint.merchant_id);
    this.endpoints.delete(uow, endpoint);
  }

  private invalidateAround(uow: UnitOfWork, merchantId: string): void {
    this.enabled.invalidate(merchantId);
    uow.afterCommit(() => this.enabled.invalidate(merchantId));
  }
}

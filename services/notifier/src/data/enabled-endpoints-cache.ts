import { scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { EndpointRepository } from '../domain/ports';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';

export interface EnabledEndpointsCacheOptions {
  /** How long a scope's list is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Most scopes (merchant and mode) kept; the least recently loaded one goes first. */
  maxScopes?: number;
  nowMs?: () => number;
}

interface Entry {
  endpoints: readonly WebhookEndpoint[];
  limit: number;
  expiresAt: number;
}

type Load = (scope: Scope, limit: number) => Promise<WebhookEndpoint[]>;

const keyOf = (scope: Scope): string => `${scope.merchantId}\n${scope.mode}`;

/**
 * The enabled endpoints of a merchant in one mode, kept in memory for a short time: every consumed
 * event needs them, and they change rarely. A write through this process drops the scope's entry at
 * once; a write by another process is seen at the latest `ttlMs` later. A list whose load overlapped
 * a write is returned to its caller but never kept.
 */
export class EnabledEndpointsCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts invalidations (of any scope): a load during which it moved is not kept. Writes are rare. */
  private invalidations = 0;
  private readonly maxScopes: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly load: Load,
    private readonly options: EnabledEndpointsCacheOptions,
  ) {
    this.maxScopes = options.maxScopes ?? 10_000;
    this.nowMs = options.nowMs ?? Date.now;
  }

  async get(scope: Scope, limit: number): Promise<WebhookEndpoint[]> {
    if (this.options.ttlMs <= 0) return this.load(scope, limit);
    const key = keyOf(scope);
    const cached = this.entries.get(key);
    if (cached && cached.limit === limit && cached.expiresAt > this.nowMs()) return [...cached.endpoints];
    const seen = this.invalidations;
    const endpoints = await this.load(scope, limit);
    if (this.invalidations === seen) this.keep(key, { endpoints: Object.freeze([...endpoints]), limit, expiresAt: this.nowMs() + this.options.ttlMs });
    return endpoints;
  }

  /** Called for every write to a scope's endpoints (before and after its commit). */
  invalidate(scope: Scope): void {
    this.entries.delete(keyOf(scope));
    this.invalidations++;
  }

  private keep(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxScopes) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * The endpoint repository with the enabled-endpoints cache in front of listEnabled. Every write
 * drops the scope's cached list when it is buffered and again once it committed, so no read
 * that overlapped the commit is kept.
 */
export class CachedEndpointRepository implements EndpointRepository {
  private readonly enabled: EnabledEndpointsCache;

  constructor(
    private readonly endpoints: EndpointRepository,
    options: { ttlMs: number; clock: Clock },
  ) {
    this.enabled = new EnabledEndpointsCache((scope, limit) => endpoints.listEnabled(scope, limit), {
      ttlMs: options.ttlMs,
      nowMs: () => options.clock.now().getTime(),
    });
  }

  get(scope: Scope, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.get(scope, id);
  }

  list(scope: Scope, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.endpoints.list(scope, page);
  }

  count(scope: Scope): Promise<number> {
    return this.endpoints.count(scope);
  }

  listEnabled(scope: Scope, limit: number): Promise<WebhookEndpoint[]> {
    return this.enabled.get(scope, limit);
  }

  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint {
    this.invalidateAround(uow, scopeOfDocument(endpoint));
    return this.endpoints.insert(uow, endpoint);
  }

  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint {
    this.invalidateAround(uow, scopeOfDocument(endpoint));
    return this.endpoints.update(uow, endpoint);
  }

  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void {
    this.invalidateAround(uow, scopeOfDocument(endpoint));
    this.endpoints.delete(uow, endpoint);
  }

  private invalidateAround(uow: UnitOfWork, scope: Scope): void {
    this.enabled.invalidate(scope);
    uow.afterCommit(() => this.enabled.invalidate(scope));
  }
}

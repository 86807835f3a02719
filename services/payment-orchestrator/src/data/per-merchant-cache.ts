import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Clock } from '@vaultline/core';

export interface PerMerchantCacheOptions {
  /** How long a merchant's value is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Most merchants kept; the least recently loaded one goes first. */
  maxMerchants?: number;
}

const keyOf = (scope: Scope): string => `${scope.merchantId}\u0000${scope.mode}`;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * A value per merchant that every payment reads and that changes rarely, kept in memory for a short
 * time. A write through this process drops the merchant's entry at once (before and after its commit);
 * one by another process is seen at the latest `ttlMs` later. A value whose load overlapped a write is
 * returned but never kept. Values are shared by every reader: callers must not change them.
 */
export class PerMerchantCache<T> {
  /** Keyed by merchant and mode: a test key's value is never served to a live key. */
  private readonly entries = new Map<string, Entry<T>>();
  private invalidations = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: PerMerchantCacheOptions,
  ) {}

  async get(scope: Scope, load: () => Promise<T>): Promise<T> {
    if (this.options.ttlMs <= 0) return load();
    const now = this.clock.now().getTime();
    const cached = this.entries.get(keyOf(scope));
    if (cached && cached.expiresAt > now) return cached.value;
    const seen = this.invalidations;
    const value = await load();
    if (this.invalidations === seen) this.keep(scope, { value, expiresAt: now + this.options.ttlMs });
    return value;
  }

  /** The merchant's value changes in `uow`. */
  invalidateWith(uow: UnitOfWork, scope: Scope): void {
    this.invalidate(scope);
    uow.afterCommit(() => this.invalidate(scope));
  }

  private invalidate(scope: Scope): void {
    this.entries.delete(keyOf(scope));
    this.invalidations++;
  }

  private keep(scope: Scope, entry: Entry<T>): void {
    this.entries.delete(keyOf(scope));
    this.entries.set(keyOf(scope), entry);
    if (this.entries.size > (this.options.maxMerchants ?? 10_000)) this.entries.delete(this.entries.keys().next().value as string);
  }
}

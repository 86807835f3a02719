import type { UnitOfWork } from '@vaultline/store';
import type { Clock } from '../domain/ports';

export interface PerMerchantCacheOptions {
  /** How long a merchant's value is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Most merchants kept; the least recently loaded one goes first. */
  maxMerchants?: number;
}

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
  private readonly entries = new Map<string, Entry<T>>();
  private invalidations = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: PerMerchantCacheOptions,
  ) {}

  async get(merchantId: string, load: () => Promise<T>): Promise<T> {
    if (this.options.ttlMs <= 0) return load();
    const now = this.clock.now().getTime();
    const cached = this.entries.get(merchantId);
    if (cached && cached.expiresAt > now) return cached.value;
    const seen = this.invalidations;
    const value = await load();
    if (this.invalidations === seen) this.keep(merchantId, { value, expiresAt: now + this.options.ttlMs });
    return value;
  }

  /** The merchant's value changes in `uow`. */
  invalidateWith(uow: UnitOfWork, merchantId: string): void {
    this.invalidate(merchantId);
    uow.afterCommit(() => this.invalidate(merchantId));
  }

  private invalidate(merchantId: string): void {
    this.entries.delete(merchantId);
    this.invalidations++;
  }

  private keep(merchantId: string, entry: Entry<T>): void {
    this.entries.delete(merchantId);
    this.entries.set(merchantId, entry);
    if (this.entries.size > (this.options.maxMerchants ?? 10_000)) this.entries.delete(this.entries.keys().next().value as string);
  }
}

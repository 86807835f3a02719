import type { Clock } from '@vaultline/core';

/** How long a key or merchant is reused without reading the store (how late another instance's revocation is seen). */
export const DEFAULT_CACHE_TTL_MS = 2_000;

export interface ExpiringEntriesOptions {
  clock: Clock;
  /** How long a loaded value is served from memory (default DEFAULT_CACHE_TTL_MS); 0 turns keeping off. */
  ttlMs?: number;
  /** Most entries kept (default 10 000); the least recently loaded one goes first. */
  maxEntries?: number;
}

/**
 * Values loaded from the store, kept for a short time (the caches in this folder are built on it).
 * A load that overlapped an invalidation is returned to its caller but never kept, so a write that
 * invalidates before and after itself is seen at once by every later read here. Null (not found) is
 * never kept.
 */
export class ExpiringEntries<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Counts invalidations: a load during which it moved is not kept. */
  private invalidations = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(private readonly options: ExpiringEntriesOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  async through(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (this.ttlMs <= 0) return load();
    const kept = this.entries.get(key);
    if (kept && kept.expiresAt > this.nowMs()) return kept.value;
    const seen = this.invalidations;
    const value = await load();
    if (value !== null && seen === this.invalidations) this.keep(key, value);
    return value;
  }

  invalidateAll(): void {
    this.entries.clear();
    this.invalidations++;
  }

  private keep(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.nowMs() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  private nowMs(): number {
    return this.options.clock.now().getTime();
  }
}

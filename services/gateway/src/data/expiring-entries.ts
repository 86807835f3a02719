import type { Clock } from '@vaultline/core';

export interface ExpiringEntriesOptions {
  /** How long a loaded value is served from memory; 0 turns keeping off. */
  ttlMs: number;
  /** Most entries kept; the least recently loaded one goes first. */
  maxEntries: number;
  clock: Clock;
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

  constructor(private readonly options: ExpiringEntriesOptions) {}

  async through(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (this.options.ttlMs <= 0) return load();
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
    this.entries.set(key, { value, expiresAt: this.nowMs() + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  private nowMs(): number {
    return this.options.clock.now().getTime();
  }
}

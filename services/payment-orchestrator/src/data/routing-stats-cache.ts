import type { Clock, Scope } from '@vaultline/core';
import {
  addToBuckets,
  bucketStart,
  rowKey,
  type AttemptRecord,
  type DecisionRecord,
  type RoutingStatsRepository,
  type RoutingStatsRow,
} from '../domain/routing/routing-stats';

export interface RoutingStatsCacheOptions {
  /** How long a merchant's buckets are served from memory before they are read again (ROUTING_STATS_CACHE_MS); 0 turns the cache off. */
  ttlMs: number;
  bucketMs: number;
  /** Most merchants (and modes) kept; the least recently loaded goes first. */
  maxScopes?: number;
}

interface Entry {
  /** Buckets by bucket start and row key. */
  rows: Map<string, RoutingStatsRow>;
  /** The earliest bucket read: a window that starts before it is read again. */
  from: string;
  loadedAt: number;
}

const scopeKey = (scope: Scope): string => `${scope.merchantId}\u0000${scope.mode}`;

/**
 * A merchant's recent buckets kept in memory: every success-rate decision reads the window, and a decision
 * a moment stale is as good. This process's own outcomes are added to the kept buckets at once (so its
 * next decision sees them); another process's within `ttlMs`.
 */
export class CachedRoutingStatsRepository implements RoutingStatsRepository {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: RoutingStatsRepository,
    private readonly clock: Clock,
    private readonly options: RoutingStatsCacheOptions,
  ) {}

  async window(scope: Scope, since: Date): Promise<RoutingStatsRow[]> {
    if (this.options.ttlMs <= 0) return this.inner.window(scope, since);
    const from = bucketStart(since, this.options.bucketMs);
    const now = this.clock.now().getTime();
    let entry = this.entries.get(scopeKey(scope));
    if (!entry || now - entry.loadedAt >= this.options.ttlMs || from < entry.from) {
      const rows = new Map<string, RoutingStatsRow>();
      for (const row of await this.inner.window(scope, since)) rows.set(`${row.bucket_start}\u0000${rowKey(row.processor, row.segment)}`, row);
      entry = { rows, from, loadedAt: now };
      this.keep(scope, entry);
    }
    // Buckets that left the window are let go as it slides.
    const kept: RoutingStatsRow[] = [];
    for (const [key, row] of entry.rows) {
      if (row.bucket_start < from) entry.rows.delete(key);
      else kept.push(row);
    }
    return kept;
  }

  async record(scope: Scope, at: Date, entries: { attempts: AttemptRecord[]; decisions: DecisionRecord[] }): Promise<void> {
    const entry = this.entries.get(scopeKey(scope));
    if (entry) addToBuckets(entry.rows, bucketStart(at, this.options.bucketMs), entries);
    await this.inner.record(scope, at, entries);
  }

  private keep(scope: Scope, entry: Entry): void {
    this.entries.delete(scopeKey(scope));
    this.entries.set(scopeKey(scope), entry);
    if (this.entries.size > (this.options.maxScopes ?? 10_000)) this.entries.delete(this.entries.keys().next().value as string);
  }
}

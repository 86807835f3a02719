import { createHash } from 'node:crypto';
import type { Scope } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError, everyItem, type DocumentStore, type ScopedDocument } from '@vaultline/store';
import {
  addToBuckets,
  bucketStart,
  rowKey,
  type AttemptRecord,
  type DecisionRecord,
  type RoutingStatsRepository,
  type RoutingStatsRow,
} from '../domain/routing/routing-stats';
import { ROUTING_STATS } from './collections';

/** One processor in one segment in one time bucket, as stored. */
interface RoutingStatsDocument extends ScopedDocument, RoutingStatsRow {}

/** Another process added to the same bucket first: the lost compare-and-set reads it again (a handful of times at most). */
const WRITE_TRIES = 8;

/** The counts of one scope waiting for the next write, and the callers waiting for it. */
interface PendingCounts {
  rows: Map<string, RoutingStatsRow>;
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/** One scope's writer: at most one write under way; what arrives meanwhile waits, merged, for the next one. */
interface ScopeWriter {
  scope: Scope;
  pending: PendingCounts;
  writing: boolean;
}

/**
 * The counts as documents, one per processor, segment and bucket, its id derived from them: adding to a
 * bucket is a compare-and-set on its version (a new one an insert that a concurrent insert of the same id
 * fails), so concurrent payments never lose a count.
 *
 * Payments of one merchant finishing at once all add to the same bucket. Written one by one, every write
 * but one of each commit would lose its compare-and-set and read again (measured: about 7 lost writes per
 * payment with 256 in flight, and counts dropped after the last try). So this process writes one scope at a
 * time: counts recorded while a write is under way are merged and go out together in the next one, and each
 * caller's promise settles when the write holding its counts committed. Only another process (a replica)
 * can still win a race; then the write reads the buckets again.
 */
export class StoreRoutingStatsRepository implements RoutingStatsRepository {
  private readonly writers = new Map<string, ScopeWriter>();

  constructor(
    private readonly store: DocumentStore,
    private readonly bucketMs: number,
  ) {}

  async window(scope: Scope, since: Date): Promise<RoutingStatsRow[]> {
    const collection = this.store.collection<RoutingStatsDocument>(ROUTING_STATS);
    const rows: RoutingStatsRow[] = [];
    const from = bucketStart(since, this.bucketMs);
    for await (const document of everyItem((page) => collection.list(scope, { bucket_start: { gte: from } }, page), 500)) rows.push(rowOf(document));
    return rows;
  }

  record(scope: Scope, at: Date, entries: { attempts: AttemptRecord[]; decisions: DecisionRecord[] }): Promise<void> {
    const key = `${scope.merchantId}\u0000${scope.mode}`;
    let writer = this.writers.get(key);
    if (!writer) {
      writer = { scope, pending: { rows: new Map(), waiters: [] }, writing: false };
      this.writers.set(key, writer);
    }
    addToBuckets(writer.pending.rows, bucketStart(at, this.bucketMs), entries);
    const written = new Promise<void>((resolve, reject) => writer.pending.waiters.push({ resolve, reject }));
    if (!writer.writing) void this.drain(key, writer);
    return written;
  }

  /** Writes the scope's pending counts, then what arrived meanwhile, until none is left. */
  private async drain(key: string, writer: ScopeWriter): Promise<void> {
    writer.writing = true;
    while (writer.pending.waiters.length > 0) {
      const batch = writer.pending;
      writer.pending = { rows: new Map(), waiters: [] };
      try {
        await this.write(writer.scope, [...batch.rows.values()]);
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of batch.waiters) waiter.reject(error);
      }
    }
    writer.writing = false;
    this.writers.delete(key);
  }

  /** Adds `rows` to their stored buckets in one transaction; a race lost to another process reads them again. */
  private async write(scope: Scope, rows: RoutingStatsRow[]): Promise<void> {
    const collection = this.store.collection<RoutingStatsDocument>(ROUTING_STATS);
    for (let tries = 1; ; tries++) {
      const stored = await Promise.all(rows.map((row) => collection.get(scope, idOf(scope, row))));
      try {
        await this.store.transaction((uow) => {
          rows.forEach((row, index) => {
            const before = stored[index];
            if (!before) {
              uow.insert<RoutingStatsDocument>(ROUTING_STATS, { ...row, id: idOf(scope, row), merchant_id: scope.merchantId, mode: scope.mode });
              return;
            }
            uow.update<RoutingStatsDocument>(ROUTING_STATS, {
              ...before,
              attempts: before.attempts + row.attempts,
              approved: before.approved + row.approved,
              declined: before.declined + row.declined,
              errors: before.errors + row.errors,
              decisions: Object.fromEntries(
                Object.entries(row.decisions).map(([reason, count]) => [reason, (before.decisions[reason as keyof typeof before.decisions] ?? 0) + count]),
              ) as RoutingStatsRow['decisions'],
            });
          });
        });
        return;
      } catch (error) {
        const lostRace = error instanceof ConcurrentModificationError || error instanceof DuplicateKeyError;
        if (!lostRace || tries >= WRITE_TRIES) throw error;
      }
    }
  }
}

function idOf(scope: Scope, row: RoutingStatsRow): string {
  return createHash('sha256')
    .update(JSON.stringify([scope.merchantId, scope.mode, row.bucket_start, rowKey(row.processor, row.segment)]))
    .digest('hex')
    .slice(0, 40);
}

function rowOf(document: RoutingStatsDocument): RoutingStatsRow {
  return {
    bucket_start: document.bucket_start,
    processor: document.processor,
    segment: { ...document.segment },
    attempts: document.attempts,
    approved: document.approved,
    declined: document.declined,
    errors: document.errors,
    decisions: { ...document.decisions },
  };
}

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

/** Concurrent payments add to the same bucket: a lost compare-and-set reads it again (a handful of times at most). */
const WRITE_TRIES = 8;

/**
 * The counts as documents, one per processor, segment and bucket, its id derived from them: adding to a
 * bucket is a compare-and-set on its version (a new one an insert that a concurrent insert of the same id
 * fails), so concurrent payments never lose a count.
 */
export class StoreRoutingStatsRepository implements RoutingStatsRepository {
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

  async record(scope: Scope, at: Date, entries: { attempts: AttemptRecord[]; decisions: DecisionRecord[] }): Promise<void> {
    const bucket = bucketStart(at, this.bucketMs);
    const collection = this.store.collection<RoutingStatsDocument>(ROUTING_STATS);
    for (let tries = 1; ; tries++) {
      // The buckets these entries touch, as stored now, with the entries added.
      const added = new Map<string, RoutingStatsRow>();
      addToBuckets(added, bucket, entries);
      const stored = new Map<string, RoutingStatsDocument | null>();
      for (const row of added.values()) stored.set(rowKey(row.processor, row.segment), await collection.get(scope, idOf(scope, row)));
      try {
        await this.store.transaction((uow) => {
          for (const row of added.values()) {
            const before = stored.get(rowKey(row.processor, row.segment));
            if (!before) {
              uow.insert<RoutingStatsDocument>(ROUTING_STATS, { ...row, id: idOf(scope, row), merchant_id: scope.merchantId, mode: scope.mode });
              continue;
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
          }
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

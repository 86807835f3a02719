import {
  ConcurrentModificationError,
  DuplicateKeyError,
  LeaseLostError,
  UnknownCollectionError,
  partitionOf,
  partitionOfDocument,
  type Collection,
  type CollectionSpec,
  type DocumentStore,
  type Fence,
  type IndexSpec,
  type Leases,
  type Outbox,
  type OutboxMessage,
  type Page,
  type PageRequest,
  type PendingOutboxMessage,
  type ProcessedRetention,
  type StoreScope,
  type StoredDocument,
  type UnitOfWork,
  type Where,
} from '../store.port';
import { CommitListeners } from '../commit-listeners';
import { toPage, validatePage } from '../page';
import { runUnitOfWork, type BufferedUnitOfWork } from '../unit-of-work';
import { assertCollectionName, assertIndexes } from '../collection-naming';
import { parseWhere, type Condition } from '../where';
import { compareStrings, matches } from './match-where';
import { nextLeaseTerm, pruneProcessedPeriodically, type LeaseRow } from '../lease-terms';

export interface MemoryStoreOptions {
  /** Drop processed-event marks after this long (checked hourly); kept for ever without it. */
  processedRetention?: ProcessedRetention;
  /** The clock of leases and marks (tests move it). */
  now?: () => number;
}

type Doc = StoredDocument & Record<string, unknown>;

interface MemoryCollectionState {
  spec: CollectionSpec;
  uniqueIndexes: IndexSpec[];
  docs: Map<string, Doc>;
}

const PROCESSED = 'processed_events';

/**
 * In-process store for tests. Documents are copied in and out (JSON round trip, like the other
 * adapters), so callers can never change stored state except through a unit of work.
 * Commits are applied to a staged copy of the touched documents and swapped in only when every
 * version check and unique index holds.
 */
export class MemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MemoryCollectionState>();
  private readonly outboxRows = new Map<number, OutboxMessage>();
  /** Processed-event mark → when it was recorded (epoch ms). */
  private readonly processed = new Map<string, number>();
  private readonly leaseRows = new Map<string, LeaseRow>();
  private readonly listeners = new CommitListeners();
  private readonly now: () => number;
  private readonly stopPruning: () => void;
  private nextPosition = 1;
  private closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    const retention = options.processedRetention;
    this.stopPruning = retention ? pruneProcessedPeriodically((before) => this.pruneProcessed(before), retention.retentionMs, this.now) : () => undefined;
  }

  readonly leases: Leases = {
    acquire: async (name: string, holder: string, ttlMs: number): Promise<number | null> => {
      const next = nextLeaseTerm(this.leaseRows.get(name), holder, ttlMs, this.now());
      if (next) this.leaseRows.set(name, next);
      return next?.token ?? null;
    },
    release: async (name: string, holder: string): Promise<void> => {
      const row = this.leaseRows.get(name);
      if (row?.holder === holder) this.leaseRows.set(name, { ...row, expiresAt: 0 });
    },
  };

  readonly outbox: Outbox = {
    pending: async (limit: number): Promise<PendingOutboxMessage[]> => {
      const { limit: max } = validatePage({ limit });
      const result: PendingOutboxMessage[] = [];
      for (const [position, message] of this.outboxRows) {
        if (result.length >= max) break;
        result.push({ position: String(position), message: structuredClone(message) });
      }
      return result;
    },
    remove: async (positions: string[], fence?: Fence): Promise<void> => {
      if (fence && this.leaseRows.get(fence.lease)?.token !== fence.token) throw new LeaseLostError(fence.lease, fence.token);
      for (const position of positions) this.outboxRows.delete(Number(position));
    },
    onCommit: (listener: () => void): (() => void) => this.listeners.add(listener),
  };

  async register(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    assertIndexes(spec.name, spec.indexes ?? []);
    const existing = this.collections.get(spec.name);
    const uniqueIndexes = (spec.indexes ?? []).filter((index) => index.unique);
    if (existing) {
      existing.spec = spec;
      existing.uniqueIndexes = uniqueIndexes;
      return;
    }
    this.collections.set(spec.name, { spec, uniqueIndexes, docs: new Map() });
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    assertCollectionName(name);
    return new MemoryCollection<T>(name, () => this.state(name));
  }

  async transaction<R>(work: (uow: UnitOfWork) => R | Promise<R>): Promise<R> {
    return runUnitOfWork(
      (name) => void this.state(name),
      work,
      (uow) => this.commit(uow),
    );
  }

  async isProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    return this.processed.has(processedKey(consumerGroup, eventId));
  }

  async pruneProcessed(before: Date): Promise<number> {
    let dropped = 0;
    for (const [key, at] of this.processed) {
      if (at < before.getTime() && this.processed.delete(key)) dropped++;
    }
    return dropped;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('memory store is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPruning();
  }

  private state(name: string): MemoryCollectionState {
    const state = this.collections.get(name);
    if (!state) throw new UnknownCollectionError(name);
    return state;
  }

  private commit(uow: BufferedUnitOfWork): void {
    // Staged final state of every touched document (null = deleted), keyed by collection then id.
    const staged = new Map<string, Map<string, Doc | null>>();
    const current = (collection: string, id: string): Doc | undefined => {
      const touched = staged.get(collection);
      if (touched?.has(id)) return touched.get(id) ?? undefined;
      return this.state(collection).docs.get(id);
    };
    const stage = (collection: string, id: string, doc: Doc | null): void => {
      let touched = staged.get(collection);
      if (!touched) staged.set(collection, (touched = new Map()));
      touched.set(id, doc);
    };

    for (const op of uow.ops) {
      const existing = current(op.collection, op.id);
      if (op.kind === 'insert') {
        if (existing) throw new DuplicateKeyError(op.collection, ['id']);
        stage(op.collection, op.id, JSON.parse(op.json) as Doc);
      } else if (op.kind === 'update') {
        if (!existing || partitionOfDocument(existing) !== op.partition || existing.version !== op.expectedVersion) {
          throw new ConcurrentModificationError(op.collection, op.id);
        }
        stage(op.collection, op.id, JSON.parse(op.json) as Doc);
      } else {
        const own = existing && partitionOfDocument(existing) === op.partition ? existing : undefined;
        if (op.expectedVersion !== undefined && own?.version !== op.expectedVersion) {
          throw new ConcurrentModificationError(op.collection, op.id);
        }
        if (own) stage(op.collection, op.id, null);
      }
    }

    const marks = uow.marks.map((mark) => processedKey(mark.group, mark.eventId));
    if (new Set(marks).size !== marks.length || marks.some((key) => this.processed.has(key))) {
      throw new DuplicateKeyError(PROCESSED, ['consumer_group', 'event_id']);
    }
    for (const [collection, touched] of staged) this.checkUnique(collection, touched);

    for (const [collection, touched] of staged) {
      const docs = this.state(collection).docs;
      for (const [id, doc] of touched) {
        if (doc) docs.set(id, doc);
        else docs.delete(id);
      }
    }
    const markedAt = this.now();
    for (const key of marks) this.processed.set(key, markedAt);
    for (const message of uow.messages) this.outboxRows.set(this.nextPosition++, message);
    if (uow.messages.length > 0) this.listeners.notify();
  }

  /** Unique indexes are per merchant (unless acrossMerchants) and ignore documents where an indexed field is null or missing. */
  private checkUnique(collection: string, touched: Map<string, Doc | null>): void {
    const state = this.state(collection);
    for (const index of state.uniqueIndexes) {
      const claimed = new Map<string, string>();
      for (const [id, doc] of touched) {
        const key = doc && uniqueKey(doc, index);
        if (key === null || key === undefined) continue;
        if (claimed.has(key)) throw new DuplicateKeyError(collection, index.fields);
        claimed.set(key, id);
      }
      if (claimed.size === 0) continue;
      for (const [id, doc] of state.docs) {
        if (touched.has(id)) continue;
        const key = uniqueKey(doc, index);
        if (key !== null && claimed.has(key)) throw new DuplicateKeyError(collection, index.fields);
      }
    }
  }
}

function uniqueKey(doc: Doc, index: IndexSpec): string | null {
  const values: unknown[] = index.acrossMerchants ? [] : [partitionOfDocument(doc)];
  for (const field of index.fields) {
    const value = doc[field];
    if (value === null || value === undefined) return null;
    values.push(value);
  }
  return JSON.stringify(values);
}

function processedKey(group: string, eventId: string): string {
  return JSON.stringify([group, eventId]);
}

class MemoryCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly state: () => MemoryCollectionState,
  ) {}

  async get(scope: StoreScope, id: string): Promise<T | null> {
    const doc = this.state().docs.get(id);
    return doc && partitionOfDocument(doc) === partitionOf(scope) ? copy<T>(doc) : null;
  }

  async findOne(scope: StoreScope, where: Where): Promise<T | null> {
    const page = await this.list(scope, where, { limit: 1 });
    return page.items[0] ?? null;
  }

  async getGlobal(id: string): Promise<T | null> {
    const doc = this.state().docs.get(id);
    return doc ? copy<T>(doc) : null;
  }

  async findGlobal(where: Where): Promise<T | null> {
    return this.select(undefined, parseWhere(where), { limit: 1 }).items[0] ?? null;
  }

  async list(scope: StoreScope, where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select(partitionOf(scope), parseWhere(where), page);
  }

  async count(scope: StoreScope, where: Where): Promise<number> {
    const conditions = parseWhere(where);
    const partition = partitionOf(scope);
    let count = 0;
    for (const doc of this.state().docs.values()) {
      if (partitionOfDocument(doc) === partition && matches(doc, conditions)) count++;
    }
    return count;
  }

  async listAcrossMerchants(where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select(undefined, parseWhere(where), page);
  }

  private select(partition: string | undefined, conditions: Condition[], request: PageRequest): Page<T> {
    const { limit, after, order } = validatePage(request);
    const direction = order === 'asc' ? 1 : -1;
    const rows: Doc[] = [];
    for (const doc of this.state().docs.values()) {
      if (partition !== undefined && partitionOfDocument(doc) !== partition) continue;
      if (after !== undefined && direction * compareStrings(doc.id, after) <= 0) continue;
      if (matches(doc, conditions)) rows.push(doc);
    }
    rows.sort((a, b) => direction * compareStrings(a.id, b.id));
    return toPage(
      rows.slice(0, limit + 1).map((doc) => copy<T>(doc)),
      limit,
    );
  }
}

function copy<T>(doc: Doc): T {
  return structuredClone(doc) as unknown as T;
}

import type { IndexStep } from './index-plan';
import { AppError, type Mode, type Scope } from '@vaultline/core';

/**
 * The document-store port. Every service keeps its aggregates as documents in named
 * collections; adapters: memory, SQLite (better-sqlite3), MongoDB (mongoose).
 *
 * What must stay true in every adapter (the contract suite in libs/testing checks it):
 * - Tenant scope: every document's merchant_id is the merchant whose record it is and its mode the
 *   world (test or live) it belongs to; every read takes a scope (merchant and mode, or the
 *   system's own scope) and sees only that scope's documents, except the explicit global lookups
 *   (`getGlobal`, `findGlobal`, `listAcrossMerchants`) for callers that do not know the merchant yet.
 *   Unique indexes are unique per scope: a test and a live document may share a business key.
 * - Ids are UUIDv7, so ordering by id is ordering by creation; pages are cursors on id.
 * - Writes happen in a unit of work that is buffered and committed atomically together with
 *   the outbox messages and processed-event marks it holds (transactional outbox).
 * - Updates are optimistic: the document's `version` must still be the stored one, else the
 *   commit fails with ConcurrentModificationError and nothing of the unit of work is applied.
 * - A unique index violation fails the commit with DuplicateKeyError, nothing applied.
 * - Reads inside a unit of work see committed state only (writes are buffered until commit).
 */

export type Scalar = string | number | boolean | null;
export interface Range {
  eq?: Scalar;
  ne?: Scalar;
  lt?: string | number;
  lte?: string | number;
  gt?: string | number;
  gte?: string | number;
  in?: Scalar[];
}
export type FieldCondition = Scalar | Range;
/** Conditions on top-level fields of the document, all of which must hold. */
export type Where = Record<string, FieldCondition>;

export interface StoredDocument {
  id: string;
  merchant_id: string;
  /**
   * The world the document belongs to; every merchant resource has one (the mode of the key that
   * created it). Documents of the system (SYSTEM_SCOPE) have none.
   */
  mode?: Mode;
  /** Managed by the store: 1 after insert, +1 on each update. */
  version: number;
}

/** A merchant's document: it belongs to one mode, always. */
export interface ScopedDocument extends StoredDocument {
  mode: Mode;
}

/** Merchant id for documents that belong to the system rather than to a merchant. */
export const SYSTEM_SCOPE = '__system__';

/** Whose documents a read sees: one merchant's in one mode, or the system's own. */
export type StoreScope = Scope | typeof SYSTEM_SCOPE;

/**
 * The partition that holds a scope's documents: the merchant id for test mode (so data written
 * before modes existed stays test data), the merchant id with `/live` for live mode, SYSTEM_SCOPE
 * for the system. Adapters keep it beside each document and filter every scoped read on it, so unique
 * indexes hold per merchant and mode.
 */
export function partitionOf(scope: StoreScope): string {
  if (scope === SYSTEM_SCOPE) return SYSTEM_SCOPE;
  return scope.mode === 'live' ? `${scope.merchantId}/live` : scope.merchantId;
}

/** The partition a document belongs to, from its own merchant_id and mode. */
export function partitionOfDocument(doc: { merchant_id: string; mode?: Mode }): string {
  if (doc.merchant_id === SYSTEM_SCOPE) return SYSTEM_SCOPE;
  return partitionOf({ merchantId: doc.merchant_id, mode: doc.mode ?? 'test' });
}

export interface IndexSpec {
  /** Top-level fields; the merchant id is the implicit first field unless `acrossMerchants`. */
  fields: string[];
  /** Unique per merchant; with `acrossMerchants`, unique over every merchant's documents. */
  unique?: boolean;
  /**
   * The index does not start with the merchant id: it serves the global lookups (`findGlobal`,
   * `listAcrossMerchants`), and a unique one holds across merchants (an API key hash).
   */
  acrossMerchants?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
}

export interface PageRequest {
  limit: number;
  /** Cursor: the id of the last item of the previous page. */
  after?: string;
  /** asc = oldest first (default), desc = newest first. */
  order?: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  has_more: boolean;
  /** Pass as `after` to get the next page; absent when there is none. */
  next_cursor?: string;
}

export interface Collection<T extends StoredDocument> {
  readonly name: string;
  get(scope: StoreScope, id: string): Promise<T | null>;
  findOne(scope: StoreScope, where: Where): Promise<T | null>;
  list(scope: StoreScope, where: Where, page: PageRequest): Promise<Page<T>>;
  count(scope: StoreScope, where: Where): Promise<number>;
  /**
   * Global lookups, for callers that do not know the merchant: a public session id, an API key hash,
   * a queue entry by its message id. The document comes back with its own merchant_id, which the
   * caller then uses for everything else. Give `findGlobal` an `acrossMerchants` index.
   */
  getGlobal(id: string): Promise<T | null>;
  findGlobal(where: Where): Promise<T | null>;
  /** Background workers (schedulers, resumable jobs, due deliveries): reads across every merchant. */
  listAcrossMerchants(where: Where, page: PageRequest): Promise<Page<T>>;
}

/**
 * An event as domain code builds it (libs/contracts' domainEvent: a validated envelope, its topic and
 * key), without the trace context: the unit of work adds that when the event is published.
 */
export interface EventToPublish {
  topic: string;
  key: string;
  envelope: { id: string; type: string; data: unknown };
}

/** Runs work in one unit of work and commits it atomically (DocumentStore.transaction): the port use cases take. */
export type TransactionRunner = <R>(work: (uow: UnitOfWork) => R | Promise<R>) => Promise<R>;

/** A message for the bus, written to the outbox in the same commit as the state change. */
export interface OutboxMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface PendingOutboxMessage {
  /** Adapter-specific position, used to remove it once published. */
  position: string;
  message: OutboxMessage;
}

export interface UnitOfWork {
  /** Inserts a new document with version 1; returns it as stored. */
  insert<T extends StoredDocument>(collection: string, doc: Omit<T, 'version'>): T;
  /** Replaces the document whose stored version equals doc.version; returns it with version + 1. */
  update<T extends StoredDocument>(collection: string, doc: T): T;
  /** Deletes the document; when expectedVersion is given it must still match. */
  delete(collection: string, scope: StoreScope, id: string, expectedVersion?: number): void;
  /**
   * Adds a message to the outbox, committed with the state change. An event gets the active trace
   * context here (a `publish <type>` span's), so the consumer's span continues the request's trace.
   */
  publish(message: EventToPublish | OutboxMessage): void;
  /** Records that a consumer group applied an event, committed with its effect. */
  markProcessed(consumerGroup: string, eventId: string): void;
  /**
   * Declares that this unit erases sensitive content (crypto-shredding: the ciphertexts and wrapped
   * key of a deleted token). Once it has committed, and before the transaction's promise settles, the
   * store leaves no readable copy of what the unit overwrote or deleted in its own files, as far as its
   * engine allows: SQLite zeroes freed space (secure_delete, always on) and checkpoints and truncates
   * the WAL; the memory store has nothing on disk; MongoDB keeps copies only the key destruction
   * covers (libs/store/README.md). Costs a checkpoint: for deletions, not for every write.
   */
  shredOnCommit(): void;
  /** True once a document write or an outbox message is buffered (processed marks do not count). */
  readonly hasChanges: boolean;
  /**
   * Runs `callback` once this unit of work has committed (never when it failed or rolled back), before
   * the transaction's promise settles. For in-memory follow-ups such as dropping a cache entry; it must
   * not throw (an exception is rethrown on its own, it does not fail the committed transaction).
   */
  afterCommit(callback: () => void): void;
}

/** A lease's name and the fencing token its holder got: a write fenced by it fails once another holder took the lease. */
export interface Fence {
  lease: string;
  token: number;
}

export interface Outbox {
  /** The oldest unpublished messages, in commit order (across every process writing to the store). */
  pending(limit: number): Promise<PendingOutboxMessage[]>;
  /**
   * Removes published messages. With a fence, only while that lease still carries that token (atomically
   * with the removal); otherwise nothing is removed and LeaseLostError is thrown.
   */
  remove(positions: string[], fence?: Fence): Promise<void>;
  /** Called after every commit that added outbox messages (relays use it to wake up). */
  onCommit(listener: () => void): () => void;
}

/**
 * Named leases in the service's own store, so that one process of several does a job alone (the outbox
 * relay). The time is the store's: the memory and SQLite adapters' process clock, MongoDB's server clock.
 */
export interface Leases {
  /**
   * Takes the lease for `holder` for `ttlMs` when it is free or has expired, or renews it when `holder`
   * holds it. Returns the fencing token: unchanged while one holder renews, larger at every new term
   * (another holder, or the same one after its lease ran out). Null while another holder's lease runs.
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<number | null>;
  /** Ends `holder`'s lease at once (a clean stop hands over without waiting for it to run out); no-op otherwise. */
  release(name: string, holder: string): Promise<void>;
}

/** Where and how long processed-event marks are kept (PROCESSED_EVENTS_RETENTION_DAYS). */
export interface ProcessedRetention {
  /** Marks older than this are dropped: longer than any redelivery window (default 14 days). */
  retentionMs: number;
}

export interface DocumentStore {
  /** Creates the collection's table/indexes when missing; idempotent. */
  register(spec: CollectionSpec): Promise<void>;
  /**
   * The index changes register() made since the store was opened (a migrate's log), or would make when the
   * store was opened with `indexes: 'plan'` (`migrate --dry-run`); the memory store has none.
   */
  indexSteps?(): IndexStep[];
  collection<T extends StoredDocument>(name: string): Collection<T>;
  /**
   * Runs `work`, then commits everything it buffered atomically. Returns work's result.
   * Nothing is written when work throws.
   */
  transaction<R>(work: (uow: UnitOfWork) => R | Promise<R>): Promise<R>;
  isProcessed(consumerGroup: string, eventId: string): Promise<boolean>;
  /**
   * Drops processed-event marks recorded before `before`; returns how many. The SQLite and memory adapters
   * run it themselves on a timer when opened with a retention; MongoDB expires them with a TTL index.
   */
  pruneProcessed(before: Date): Promise<number>;
  readonly outbox: Outbox;
  readonly leases: Leases;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class ConcurrentModificationError extends AppError {
  constructor(collection: string, id: string) {
    super('concurrent_modification', 409, `The ${collection} record ${id} was changed by another request; retry.`, {}, true);
  }
}

export class DuplicateKeyError extends AppError {
  constructor(collection: string, fields: string[]) {
    super('duplicate_key', 409, `A ${collection} record with the same ${fields.join(', ')} already exists.`, { fields });
  }
}

/** A fenced write found the lease held by another term: this process is no longer the holder. */
export class LeaseLostError extends Error {
  constructor(lease: string, token: number) {
    super(`lease ${lease} is no longer held with fencing token ${token}: another holder took it over`);
    this.name = 'LeaseLostError';
  }
}

/**
 * The store was opened to use indexes made by the migrate command, and some are missing: the service
 * refuses to start rather than run without its unique constraints or with collection scans.
 */
export class MissingIndexesError extends Error {
  constructor(readonly missing: string[]) {
    super(
      `indexes missing or different: ${missing.join(', ')}. Run the migrate command of this service (deploy/README.md, "Indexes: the migrate command") before starting it`,
    );
    this.name = 'MissingIndexesError';
  }
}

export class UnknownCollectionError extends Error {
  constructor(name: string) {
    super(`collection ${name} is not registered with this store`);
  }
}

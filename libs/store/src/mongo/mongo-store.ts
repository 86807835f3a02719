import mongoose, { mongo } from 'mongoose';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  LeaseLostError,
  MissingIndexesError,
  UnknownCollectionError,
  partitionOf,
  type Collection,
  type CollectionSpec,
  type DocumentStore,
  type Fence,
  type IndexSpec,
  type Leases,
  type Outbox,
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
import { assertCollectionName, assertIndexes, indexName, savedIndex } from '../collection-naming';
import { describeIndexStep, planIndexes, type IndexShape, type IndexStep } from '../index-plan';
import { toPage, validatePage } from '../page';
import { runUnitOfWork, type BufferedUnitOfWork, type WriteOp } from '../unit-of-work';
import { parseWhere } from '../where';
import { mongoFilter, uniqueIndexFilter, type MongoFilter } from './mongo-where';

const OUTBOX = '_vl_outbox';
const PROCESSED = '_vl_processed_events';
const COLLECTIONS = '_vl_collections';
const LEASES = '_vl_leases';
/** One counter document: outbox positions taken inside the commit's transaction, so their order is commit order across processes. */
const OUTBOX_SEQUENCE = '_vl_outbox_sequence';
const PROCESSED_TTL_INDEX = 'ix__vl_processed_events_ttl';
const OUTBOX_ORDER_INDEX = 'ix__vl_outbox_seq';
const DEFAULT_PROCESSED_RETENTION_MS = 14 * 86_400_000;

export interface MongoStoreOptions {
  /**
   * `create` (default): register() creates collections and indexes, connect() the store's own (the migrate
   * command, tests). `verify`: nothing is created; register() and connect() fail with MissingIndexesError
   * naming what the migrate command has not made yet (production services at start).
   */
  indexes?: 'create' | 'verify' | 'plan';
  /** The TTL of processed-event marks (the TTL index's expireAfterSeconds); default 14 days. */
  processedRetention?: ProcessedRetention;
}

interface LeaseDocument {
  _id: string;
  holder: string;
  token: number;
  expires_at: Date;
}

interface MongoDocument {
  _id: string;
  merchant_id: string;
  /** The document's scope (partitionOf): every scoped read filters on it; every merchant index starts with it. */
  _partition: string;
  version: number;
  [field: string]: unknown;
}

interface OutboxDocument {
  _id: mongo.ObjectId;
  /** Commit order across processes; absent on rows written before it existed (they sort first). */
  seq?: number;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

interface ProcessedDocument {
  _id: string;
  consumer_group: string;
  event_id: string;
  processed_at: Date;
}

interface SpecDocument {
  _id: string;
  spec: CollectionSpec;
}

/** Jepsen (MongoDB 4.2.6): multi-document transactions are only safe with majority writes and snapshot reads. */
const TRANSACTION_OPTIONS: mongo.TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

/**
 * MongoDB adapter through mongoose's connection (the native driver underneath; no schemas, no models).
 * Documents are stored as their fields with `_id` = id, plus merchant_id, version and `_partition` (the
 * merchant and mode a scoped read filters on; documents stored before modes get it at register: test).
 *
 * Needs a replica set (a single-node one is enough: `mongod --replSet rs0` then `rs.initiate()`), because
 * a commit is a multi-document transaction (withTransaction, majority write concern, snapshot reads).
 * Outbox rows carry a sequence number taken from one counter document inside the commit's transaction:
 * two commits that both publish conflict on it, so sequence order is commit order across every process
 * (the price: commits that publish are serialised per database). Positions are the rows' ObjectId hex.
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly steps: IndexStep[] = [];
  private readonly listeners = new CommitListeners();

  readonly outbox: Outbox = {
    pending: async (limit: number): Promise<PendingOutboxMessage[]> => {
      const { limit: max } = validatePage({ limit });
      const rows = await this.db.collection<OutboxDocument>(OUTBOX).find({}).sort({ seq: 1, _id: 1 }).limit(max).toArray();
      return rows.map((row) => ({ position: row._id.toHexString(), message: { topic: row.topic, key: row.key, value: row.value, headers: row.headers } }));
    },
    remove: async (positions: string[], fence?: Fence): Promise<void> => {
      const ids = positions.filter((position) => mongo.ObjectId.isValid(position)).map((position) => new mongo.ObjectId(position));
      if (!fence) {
        if (ids.length > 0) await this.db.collection<OutboxDocument>(OUTBOX).deleteMany({ _id: { $in: ids } });
        return;
      }
      // The lease document is written in the same transaction: a takeover committing meanwhile conflicts with it.
      const session = await this.connection.startSession();
      try {
        await session.withTransaction(async () => {
          const { matchedCount } = await this.db
            .collection<LeaseDocument>(LEASES)
            .updateOne({ _id: fence.lease, token: fence.token }, { $inc: { fenced_writes: 1 } }, { session });
          if (matchedCount === 0) throw new LeaseLostError(fence.lease, fence.token);
          if (ids.length > 0) await this.db.collection<OutboxDocument>(OUTBOX).deleteMany({ _id: { $in: ids } }, { session });
        }, TRANSACTION_OPTIONS);
      } finally {
        await session.endSession();
      }
    },
    onCommit: (listener: () => void): (() => void) => this.listeners.add(listener),
  };

  /** On the server's clock ($$NOW): the replicas' clocks do not matter. */
  readonly leases: Leases = {
    acquire: async (name: string, holder: string, ttlMs: number): Promise<number | null> => {
      const live = { $gt: ['$expires_at', '$$NOW'] };
      const mine = { $eq: ['$holder', { $literal: holder }] };
      const free = { $or: [mine, { $not: [live] }] };
      try {
        const row = await this.db.collection<LeaseDocument>(LEASES).findOneAndUpdate(
          { _id: name },
          [
            {
              $set: {
                token: { $cond: [free, { $cond: [{ $and: [mine, live] }, '$token', { $add: [{ $ifNull: ['$token', 0] }, 1] }] }, '$token'] },
                holder: { $cond: [free, { $literal: holder }, '$holder'] },
                expires_at: { $cond: [free, { $add: ['$$NOW', ttlMs] }, '$expires_at'] },
              },
            },
          ],
          { upsert: true, returnDocument: 'after' },
        );
        return row && row.holder === holder ? row.token : null;
      } catch (error) {
        // Two first acquisitions racing to insert the document: the one that lost is not the holder.
        if (error instanceof mongo.MongoServerError && error.code === 11000) return null;
        throw error;
      }
    },
    release: async (name: string, holder: string): Promise<void> => {
      await this.db.collection<LeaseDocument>(LEASES).updateOne({ _id: name, holder }, { $set: { expires_at: new Date(0) } });
    },
  };

  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly db: mongo.Db,
    private readonly indexMode: 'create' | 'verify' | 'plan',
  ) {}

  /** Connects with majority read and write concerns; `url` names the database (mongodb://host/db?replicaSet=rs0). */
  static async connect(url: string, options: MongoStoreOptions = {}): Promise<MongoDocumentStore> {
    const connection = await mongoose
      .createConnection(url, {
        ignoreUndefined: true,
        readConcern: { level: 'majority' },
        writeConcern: { w: 'majority' },
        autoIndex: false,
        autoCreate: false,
      })
      .asPromise();
    const db = connection.db;
    if (!db) {
      await connection.close();
      throw new Error('MongoDB connection has no database');
    }
    const indexMode = options.indexes ?? 'create';
    const store = new MongoDocumentStore(connection, db, indexMode);
    try {
      for (const row of await db.collection<SpecDocument>(COLLECTIONS).find({}).toArray()) store.specs.set(row._id, row.spec);
      const retentionSeconds = Math.round((options.processedRetention?.retentionMs ?? DEFAULT_PROCESSED_RETENTION_MS) / 1000);
      if (indexMode === 'create') await createInternalIndexes(db, retentionSeconds);
      else if (indexMode === 'plan') return store;
      else await assertIndexesExist(db, { [PROCESSED]: [PROCESSED_TTL_INDEX], [OUTBOX]: [OUTBOX_ORDER_INDEX], [OUTBOX_SEQUENCE]: [], [LEASES]: [] });
    } catch (error) {
      await connection.close();
      throw error;
    }
    return store;
  }

  indexSteps(): IndexStep[] {
    return [...this.steps];
  }

  /**
   * create (migrate): the collection's indexes made what the spec declares, compared by keys and options
   * (planIndexes: missing ones created, changed ones replaced, owned ones no longer declared dropped); verify
   * (services): MissingIndexesError naming every index missing or different; plan (migrate --dry-run): the
   * changes worked out, nothing done.
   */
  async register(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    const indexes = (spec.indexes ?? []).map(savedIndex);
    assertIndexes(spec.name, indexes);
    if (this.indexMode !== 'create') {
      const existing = new Set((await this.db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
      const steps = planIndexes(spec.name, declaredIndexes(spec.name, indexes), existing.has(spec.name) ? await listedIndexes(this.db, spec.name) : []);
      if (this.indexMode === 'plan') {
        this.steps.push(...steps);
        return;
      }
      if (!existing.has(spec.name)) throw new MissingIndexesError([`collection ${spec.name}`]);
      const wrong = steps.filter((step) => step.action !== 'drop').map(describeIndexStep);
      if (wrong.length > 0) throw new MissingIndexesError(wrong);
      this.specs.set(spec.name, { name: spec.name, indexes });
      return;
    }
    await ensureCollection(this.db, spec.name);
    const collection = this.db.collection(spec.name);
    // Documents written before modes existed: their partition is their merchant id (test mode). Done once per
    // collection (the spec document remembers it), not by a scan at every migrate.
    const known = await this.db.collection<SpecDocument & { partitioned?: boolean }>(COLLECTIONS).findOne({ _id: spec.name });
    if (!known?.partitioned) await collection.updateMany({ _partition: { $exists: false } }, [{ $set: { _partition: '$merchant_id' } }]);
    await dropMerchantIndexes(collection);
    for (const step of planIndexes(spec.name, declaredIndexes(spec.name, indexes), await listedIndexes(this.db, spec.name))) {
      if (step.action !== 'create') await collection.dropIndex(step.action === 'replace' ? step.from.name : step.index.name);
      if (step.action !== 'drop') await collection.createIndex(step.index.key, mongoIndexOptions(step.index));
      this.steps.push(step);
    }
    const saved = { name: spec.name, indexes };
    await this.db
      .collection<SpecDocument & { partitioned?: boolean }>(COLLECTIONS)
      .replaceOne({ _id: spec.name }, { spec: saved, partitioned: true }, { upsert: true });
    this.specs.set(spec.name, saved);
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    assertCollectionName(name);
    return new MongoCollection<T>(name, () => this.native(name));
  }

  async transaction<R>(work: (uow: UnitOfWork) => R | Promise<R>): Promise<R> {
    return runUnitOfWork(
      (name) => this.assertRegistered(name),
      work,
      async (uow) => {
        await this.commit(uow);
        if (uow.messages.length > 0) this.listeners.notify();
      },
    );
  }

  async isProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    const found = await this.db.collection<ProcessedDocument>(PROCESSED).findOne({ _id: processedId(consumerGroup, eventId) }, { projection: { _id: 1 } });
    return found !== null;
  }

  /** The TTL index expires marks on its own (within a minute of their time); this drops them at once. */
  async pruneProcessed(before: Date): Promise<number> {
    const { deletedCount } = await this.db.collection<ProcessedDocument>(PROCESSED).deleteMany({ processed_at: { $lt: before } });
    return deletedCount;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private assertRegistered(name: string): void {
    if (!this.specs.has(name)) throw new UnknownCollectionError(name);
  }

  private native(name: string): mongo.Collection<MongoDocument> {
    this.assertRegistered(name);
    return this.db.collection<MongoDocument>(name);
  }

  private async commit(uow: BufferedUnitOfWork): Promise<void> {
    const session = await this.connection.startSession();
    let current: WriteOp | undefined;
    try {
      // withTransaction retries the callback on transient errors; it only replays the buffered writes.
      await session.withTransaction(async () => {
        for (const op of uow.ops) {
          current = op;
          await this.applyOp(op, session);
        }
        current = undefined;
        if (uow.marks.length > 0) {
          const processedAt = new Date();
          const marks = uow.marks.map(({ group, eventId }) => ({
            _id: processedId(group, eventId),
            consumer_group: group,
            event_id: eventId,
            processed_at: processedAt,
          }));
          await this.db.collection<ProcessedDocument>(PROCESSED).insertMany(marks, { session, ordered: true });
        }
        if (uow.messages.length > 0) {
          const counter = await this.db
            .collection<{ _id: string; value: number }>(OUTBOX_SEQUENCE)
            .findOneAndUpdate({ _id: 'outbox' }, { $inc: { value: uow.messages.length } }, { upsert: true, returnDocument: 'after', session });
          const first = (counter?.value ?? uow.messages.length) - uow.messages.length + 1;
          const rows = uow.messages.map((message, index) => ({ _id: new mongo.ObjectId(), seq: first + index, ...message }));
          await this.db.collection<OutboxDocument>(OUTBOX).insertMany(rows, { session, ordered: true });
        }
      }, TRANSACTION_OPTIONS);
    } catch (error) {
      throw translate(error, current);
    } finally {
      await session.endSession();
    }
  }

  private async applyOp(op: WriteOp, session: mongo.ClientSession): Promise<void> {
    const collection = this.db.collection<MongoDocument>(op.collection);
    if (op.kind === 'insert') {
      await collection.insertOne(toMongo(op.json, op.partition), { session });
      return;
    }
    if (op.kind === 'update') {
      const { matchedCount } = await collection.replaceOne(
        { _id: op.id, _partition: op.partition, version: op.expectedVersion },
        toMongo(op.json, op.partition),
        { session },
      );
      if (matchedCount === 0) throw new ConcurrentModificationError(op.collection, op.id);
      return;
    }
    const filter: mongo.Filter<MongoDocument> = { _id: op.id, _partition: op.partition };
    if (op.expectedVersion !== undefined) filter.version = op.expectedVersion;
    const { deletedCount } = await collection.deleteOne(filter, { session });
    if (deletedCount === 0 && op.expectedVersion !== undefined) throw new ConcurrentModificationError(op.collection, op.id);
  }
}

class MongoCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly native: () => mongo.Collection<MongoDocument>,
  ) {}

  async get(scope: StoreScope, id: string): Promise<T | null> {
    const row = await this.native().findOne({ _id: id, _partition: partitionOf(scope) });
    return row ? fromMongo<T>(row) : null;
  }

  async findOne(scope: StoreScope, where: Where): Promise<T | null> {
    const page = await this.list(scope, where, { limit: 1 });
    return page.items[0] ?? null;
  }

  async getGlobal(id: string): Promise<T | null> {
    const row = await this.native().findOne({ _id: id });
    return row ? fromMongo<T>(row) : null;
  }

  async findGlobal(where: Where): Promise<T | null> {
    const page = await this.select({}, where, { limit: 1 });
    return page.items[0] ?? null;
  }

  async list(scope: StoreScope, where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select({ _partition: partitionOf(scope) }, where, page);
  }

  async count(scope: StoreScope, where: Where): Promise<number> {
    const filter = mongoFilter(parseWhere(where), { _partition: partitionOf(scope) });
    return this.native().countDocuments(filter as mongo.Filter<MongoDocument>);
  }

  async listAcrossMerchants(where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select({}, where, page);
  }

  private async select(base: MongoFilter, where: Where, request: PageRequest): Promise<Page<T>> {
    const { limit, after, order } = validatePage(request);
    const cursor: MongoFilter[] = after === undefined ? [] : [{ _id: { [order === 'asc' ? '$gt' : '$lt']: after } }];
    const filter = mongoFilter(parseWhere(where), base, cursor);
    const rows = await this.native()
      .find(filter as mongo.Filter<MongoDocument>)
      .sort({ _id: order === 'asc' ? 1 : -1 })
      .limit(limit + 1)
      .toArray();
    return toPage(
      rows.map((row) => fromMongo<T>(row)),
      limit,
    );
  }
}

function toMongo(json: string, partition: string): MongoDocument {
  const { id, ...fields } = JSON.parse(json) as StoredDocument & Record<string, unknown>;
  return { _id: id, ...fields, _partition: partition } as MongoDocument;
}

function fromMongo<T>(row: MongoDocument): T {
  const { _id, _partition, ...fields } = row;
  return { id: _id, ...fields } as unknown as T;
}

function processedId(group: string, eventId: string): string {
  return `${group}:${eventId}`;
}

function translate(error: unknown, op: WriteOp | undefined): unknown {
  if (!(error instanceof mongo.MongoServerError) || error.code !== 11000) return error;
  if (!op) return new DuplicateKeyError('processed_events', ['consumer_group', 'event_id']);
  const pattern = (error.keyPattern ?? {}) as Record<string, unknown>;
  const fields = Object.keys(pattern)
    .filter((field) => field !== '_partition')
    .map((field) => (field === '_id' ? 'id' : field));
  return new DuplicateKeyError(op.collection, fields.length > 0 ? fields : ['id']);
}

/** The indexes a collection's spec declares, as MongoDB lists them: the partition's, then one per IndexSpec. */
function declaredIndexes(collection: string, indexes: readonly IndexSpec[]): IndexShape[] {
  return [
    { name: `ix_${collection}_partition`, key: { _partition: 1, _id: 1 } },
    ...indexes.map((index) => {
      // An acrossMerchants index leaves the partition out: unique over every merchant, usable by global lookups.
      const key: Record<string, number> = index.acrossMerchants ? {} : { _partition: 1 };
      for (const field of index.fields) key[field] = 1;
      return {
        name: indexName(collection, index),
        key,
        // As in SQLite, documents whose indexed field is missing or null never collide (mongoFilter repeats this filter so lookups can use the index).
        ...(index.unique ? { unique: true, partialFilterExpression: uniqueIndexFilter(index.fields) } : {}),
      };
    }),
  ];
}

const mongoIndexOptions = (index: IndexShape): mongo.CreateIndexesOptions => ({
  name: index.name,
  ...(index.unique ? { unique: true } : {}),
  ...(index.partialFilterExpression ? { partialFilterExpression: index.partialFilterExpression as mongo.Document } : {}),
  ...(index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
});

/** listIndexes as shapes (key, name, unique, sparse, partialFilterExpression, expireAfterSeconds, collation; `v` and `ns` left out). */
async function listedIndexes(db: mongo.Db, collection: string): Promise<IndexShape[]> {
  return (await db.collection(collection).listIndexes().toArray()).map((index) => ({
    name: String(index.name),
    key: Object.fromEntries(Object.entries((index.key ?? {}) as Record<string, unknown>).map(([field, direction]) => [field, Number(direction)])),
    ...(index.unique ? { unique: true } : {}),
    ...(index.sparse ? { sparse: true } : {}),
    ...(index.partialFilterExpression ? { partialFilterExpression: index.partialFilterExpression as unknown } : {}),
    ...(typeof index.expireAfterSeconds === 'number' ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
    ...(index.collation ? { collation: index.collation as unknown } : {}),
  }));
}

/**
 * Indexes of the layout before modes started with merchant_id: a unique one would hold across test and
 * live. They are replaced by the same indexes on the partition (created right after).
 */
async function dropMerchantIndexes(collection: mongo.Collection): Promise<void> {
  for (const index of await collection.listIndexes().toArray()) {
    const first = Object.keys((index.key ?? {}) as Record<string, unknown>)[0];
    if (first === 'merchant_id' && typeof index.name === 'string') await collection.dropIndex(index.name);
  }
}

const NAMESPACE_EXISTS = 48;
const INDEX_OPTIONS_CONFLICT = 85;

/** The store's own collections and indexes: the outbox's order, the processed marks' TTL (changed in place when the retention changes). */
async function createInternalIndexes(db: mongo.Db, retentionSeconds: number): Promise<void> {
  // Created up front: a transaction should not be the one to create a collection.
  for (const name of [OUTBOX, PROCESSED, LEASES, OUTBOX_SEQUENCE]) await ensureCollection(db, name);
  await db.collection(OUTBOX).createIndex({ seq: 1, _id: 1 }, { name: OUTBOX_ORDER_INDEX });
  try {
    await db.collection(PROCESSED).createIndex({ processed_at: 1 }, { name: PROCESSED_TTL_INDEX, expireAfterSeconds: retentionSeconds });
  } catch (error) {
    if (!(error instanceof mongo.MongoServerError && error.code === INDEX_OPTIONS_CONFLICT)) throw error;
    await db.command({ collMod: PROCESSED, index: { name: PROCESSED_TTL_INDEX, expireAfterSeconds: retentionSeconds } });
  }
}

/** Throws MissingIndexesError naming every collection or index (collection.index) that does not exist yet. */
async function assertIndexesExist(db: mongo.Db, wanted: Record<string, string[]>): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
  const missing: string[] = [];
  for (const [collection, indexes] of Object.entries(wanted)) {
    if (!existing.has(collection)) {
      missing.push(`collection ${collection}`);
      continue;
    }
    const names = new Set((await db.collection(collection).listIndexes().toArray()).map((index) => String(index.name)));
    for (const index of indexes) if (!names.has(index)) missing.push(`${collection}.${index}`);
  }
  if (missing.length > 0) throw new MissingIndexesError(missing);
}

async function ensureCollection(db: mongo.Db, name: string): Promise<void> {
  try {
    await db.createCollection(name);
  } catch (error) {
    if (!(error instanceof mongo.MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
  }
}

/** Test helper: drops the database a URL names (each test run uses its own database). */
export async function dropMongoDatabase(url: string): Promise<void> {
  const connection = await mongoose.createConnection(url).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

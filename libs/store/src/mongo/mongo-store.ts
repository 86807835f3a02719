import mongoose, { mongo } from 'mongoose';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  UnknownCollectionError,
  partitionOf,
  type Collection,
  type CollectionSpec,
  type DocumentStore,
  type Outbox,
  type Page,
  type PageRequest,
  type PendingOutboxMessage,
  type StoreScope,
  type StoredDocument,
  type UnitOfWork,
  type Where,
} from '../store.port';
import { CommitListeners } from '../commit-listeners';
import { assertCollectionName, assertIndexes, indexName, savedIndex } from '../collection-naming';
import { toPage, validatePage } from '../page';
import { runUnitOfWork, type BufferedUnitOfWork, type WriteOp } from '../unit-of-work';
import { parseWhere } from '../where';
import { mongoFilter, uniqueIndexFilter, type MongoFilter } from './mongo-where';

const OUTBOX = '_vl_outbox';
const PROCESSED = '_vl_processed_events';
const COLLECTIONS = '_vl_collections';

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
 * Outbox positions are ObjectId hex strings: ordered per process, only approximately across processes.
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly listeners = new CommitListeners();

  readonly outbox: Outbox = {
    pending: async (limit: number): Promise<PendingOutboxMessage[]> => {
      const { limit: max } = validatePage({ limit });
      const rows = await this.db.collection<OutboxDocument>(OUTBOX).find({}).sort({ _id: 1 }).limit(max).toArray();
      return rows.map((row) => ({ position: row._id.toHexString(), message: { topic: row.topic, key: row.key, value: row.value, headers: row.headers } }));
    },
    remove: async (positions: string[]): Promise<void> => {
      const ids = positions.filter((position) => mongo.ObjectId.isValid(position)).map((position) => new mongo.ObjectId(position));
      if (ids.length > 0) await this.db.collection<OutboxDocument>(OUTBOX).deleteMany({ _id: { $in: ids } });
    },
    onCommit: (listener: () => void): (() => void) => this.listeners.add(listener),
  };

  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly db: mongo.Db,
  ) {}

  /** Connects with majority read and write concerns; `url` names the database (mongodb://host/db?replicaSet=rs0). */
  static async connect(url: string): Promise<MongoDocumentStore> {
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
    const store = new MongoDocumentStore(connection, db);
    for (const row of await db.collection<SpecDocument>(COLLECTIONS).find({}).toArray()) store.specs.set(row._id, row.spec);
    // Created up front: a transaction should not be the one to create a collection.
    for (const name of [OUTBOX, PROCESSED]) await ensureCollection(db, name);
    return store;
  }

  async register(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    const indexes = (spec.indexes ?? []).map(savedIndex);
    assertIndexes(spec.name, indexes);
    await ensureCollection(this.db, spec.name);
    const collection = this.db.collection(spec.name);
    // Documents written before modes existed: their partition is their merchant id (test mode).
    await collection.updateMany({ _partition: { $exists: false } }, [{ $set: { _partition: '$merchant_id' } }]);
    await dropMerchantIndexes(collection);
    await collection.createIndex({ _partition: 1, _id: 1 }, { name: `ix_${spec.name}_partition` });
    for (const index of indexes) {
      // An acrossMerchants index leaves the partition out: unique over every merchant, usable by global lookups.
      const keys: Record<string, 1> = index.acrossMerchants ? {} : { _partition: 1 };
      for (const field of index.fields) keys[field] = 1;
      await collection.createIndex(keys, {
        name: indexName(spec.name, index),
        unique: index.unique,
        // As in SQLite, documents whose indexed field is missing or null never collide (mongoFilter repeats this filter so lookups can use the index).
        ...(index.unique ? { partialFilterExpression: uniqueIndexFilter(index.fields) } : {}),
      });
    }
    const saved = { name: spec.name, indexes };
    await this.db.collection<SpecDocument>(COLLECTIONS).replaceOne({ _id: spec.name }, { spec: saved }, { upsert: true });
    this.specs.set(spec.name, saved);
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    assertCollectionName(name);
    return new MongoCollection<T>(name, () => this.native(name));
  }

  async transaction<R>(work: (uow: UnitOfWork) => R | Promise<R>): Promise<R> {
    return runUnitOfWork((name) => this.assertRegistered(name), work, async (uow) => {
      await this.commit(uow);
      if (uow.messages.length > 0) this.listeners.notify();
    });
  }

  async isProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    const found = await this.db.collection<ProcessedDocument>(PROCESSED).findOne({ _id: processedId(consumerGroup, eventId) }, { projection: { _id: 1 } });
    return found !== null;
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
          const marks = uow.marks.map(({ group, eventId }) => ({ _id: processedId(group, eventId), consumer_group: group, event_id: eventId, processed_at: processedAt }));
          await this.db.collection<ProcessedDocument>(PROCESSED).insertMany(marks, { session, ordered: true });
        }
        if (uow.messages.length > 0) {
          const rows = uow.messages.map((message) => ({ _id: new mongo.ObjectId(), ...message }));
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
      const { matchedCount } = await collection.replaceOne({ _id: op.id, _partition: op.partition, version: op.expectedVersion }, toMongo(op.json, op.partition), { session });
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

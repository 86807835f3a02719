import Database from 'better-sqlite3';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  LeaseLostError,
  UnknownCollectionError,
  partitionOf,
  type Collection,
  type CollectionSpec,
  type DocumentStore,
  type Fence,
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
import { toPage, validatePage } from '../page';
import { runUnitOfWork, type BufferedUnitOfWork, type WriteOp } from '../unit-of-work';
import { parseWhere } from '../where';
import { COLLECTIONS_TABLE, INTERNAL_SCHEMA, LEASES_TABLE, OUTBOX_TABLE, PROCESSED_TABLE, collectionDdl } from './sqlite-schema';
import { assertCollectionName, indexName, savedIndex } from '../collection-naming';
import { planIndexes, type IndexShape, type IndexStep } from '../index-plan';
import { whereSql, type SqlParam } from './sqlite-where';
import { GroupCommitter, type UnitOutcome } from './group-committer';
import { preparePrivateDatabaseFile } from './private-database-file';
import { checkpointInBackground } from './wal-checkpointer';
import { nextLeaseTerm, pruneProcessedPeriodically, type LeaseRow } from '../lease-terms';

export interface SqliteStoreOptions {
  /** Drop processed-event marks after this long (checked hourly); kept for ever without it. */
  processedRetention?: ProcessedRetention;
  /** The clock of leases and marks (tests move it). */
  now?: () => number;
  /**
   * Checkpoint the WAL on the background thread (wal-checkpointer.ts): on by default. Off, SQLite's
   * automatic checkpoint alone moves it back, as in a test that reads the WAL's frames to count commits.
   */
  backgroundCheckpoints?: boolean;
  /** `migrate --dry-run`: register() works out the index changes (indexSteps()) and changes nothing. */
  planOnly?: boolean;
}

type Statement = Database.Statement<SqlParam[]>;

interface OutboxRow {
  position: number;
  topic: string;
  key: string;
  value: string;
  headers: string;
}

const STATEMENT_CACHE_LIMIT = 500;

/**
 * better-sqlite3 adapter: one table per collection (id, merchant_id, version, data JSON; the merchant_id column
 * holds the document's partition, see partitionOf), expression
 * indexes on JSON fields, outbox and processed-event tables in the same file.
 * Commits are grouped (GroupCommitter): the units of work queued within one event-loop turn share one
 * synchronous IMMEDIATE transaction. A unit that fails rolls the transaction back and the group is
 * applied again without it, so it fails alone (see applyGroup). The transaction keeps commits atomic
 * even with other processes on the same file (WAL; busy_timeout makes writers wait for each other
 * instead of failing).
 */
/** How long a shredding commit keeps retrying a checkpoint that meets another one in progress (eraseWal). */
const ERASE_WAL_PATIENCE_MS = 5_000;
/** A word nobody notifies: Atomics.wait on it is a synchronous pause. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

export class SqliteDocumentStore implements DocumentStore {
  private readonly statements = new Map<string, Statement>();
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly listeners = new CommitListeners();
  private readonly committer: GroupCommitter<BufferedUnitOfWork>;

  readonly outbox: Outbox = {
    pending: async (limit: number): Promise<PendingOutboxMessage[]> => {
      const { limit: max } = validatePage({ limit });
      const rows = this.statement(`SELECT position, topic, key, value, headers FROM ${OUTBOX_TABLE} ORDER BY position LIMIT ?`).all(max) as OutboxRow[];
      return rows.map((row) => ({
        position: String(row.position),
        message: { topic: row.topic, key: row.key, value: row.value, headers: JSON.parse(row.headers) as Record<string, string> },
      }));
    },
    remove: async (positions: string[], fence?: Fence): Promise<void> => {
      if (positions.length > 0 || fence) this.removeOutbox(positions, fence);
    },
    onCommit: (listener: () => void): (() => void) => this.listeners.add(listener),
  };

  /** Several processes may share the file (local profile tools, tests): each lease decision is one IMMEDIATE transaction. */
  readonly leases: Leases = {
    acquire: async (name: string, holder: string, ttlMs: number): Promise<number | null> => this.acquireLease.immediate(name, holder, ttlMs),
    release: async (name: string, holder: string): Promise<void> => {
      this.statement(`UPDATE ${LEASES_TABLE} SET expires_at = 0 WHERE name = ? AND holder = ?`).run(name, holder);
    },
  };

  private readonly removeOutbox: (positions: string[], fence?: Fence) => void;
  private readonly acquireLease: Database.Transaction<(name: string, holder: string, ttlMs: number) => number | null>;
  private stopCheckpoints: () => void = () => undefined;
  private stopPruning: () => void = () => undefined;
  private readonly now: () => number;
  private readonly planOnly: boolean;
  private readonly steps: IndexStep[] = [];

  private constructor(
    private readonly db: Database.Database,
    options: SqliteStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.planOnly = options.planOnly ?? false;
    // No SAVEPOINT per unit: SQLite copies the pages a unit changes inside a savepoint into a statement
    // journal, a fifth of a grouped unit's CPU (docs/benchmarks.md). A unit that fails (a version
    // conflict, a duplicate key: rare) rolls back the whole transaction instead, and the group is applied
    // again without it; each unit still sees the effects of every unit before it, as in call order.
    const applyUnits = db.transaction((units: ReadonlyArray<{ index: number; uow: BufferedUnitOfWork }>) => {
      for (const { index, uow } of units) {
        try {
          this.apply(uow);
        } catch (error) {
          // An error after which SQLite rolled the whole transaction back (I/O, disk full) fails every unit of the group.
          if (!db.inTransaction) throw error;
          throw new UnitFailed(index, error);
        }
      }
    });
    const applyGroup = (units: readonly BufferedUnitOfWork[]): UnitOutcome[] => {
      const outcomes: UnitOutcome[] = units.map(() => ({ ok: true }));
      let remaining = units.map((uow, index) => ({ index, uow }));
      for (;;) {
        try {
          applyUnits.immediate(remaining);
          return outcomes;
        } catch (error) {
          if (!(error instanceof UnitFailed)) throw error;
          outcomes[error.index] = { ok: false, error: error.cause };
          remaining = remaining.filter(({ index }) => index !== error.index);
        }
      }
    };
    this.committer = new GroupCommitter((units) => {
      const outcomes = applyGroup(units);
      if (outcomes.some((outcome, index) => outcome.ok && units[index]!.shredding)) this.eraseWal();
      if (outcomes.some((outcome, index) => outcome.ok && units[index]!.messages.length > 0)) this.listeners.notify();
      return outcomes;
    });
    this.removeOutbox = db.transaction((positions: string[], fence?: Fence) => {
      if (fence) {
        const token = this.statement(`SELECT token FROM ${LEASES_TABLE} WHERE name = ?`).pluck().get(fence.lease) as number | undefined;
        if (token !== fence.token) throw new LeaseLostError(fence.lease, fence.token);
      }
      const remove = this.statement(`DELETE FROM ${OUTBOX_TABLE} WHERE position = ?`);
      for (const position of positions) remove.run(Number(position));
    });
    this.acquireLease = db.transaction((name: string, holder: string, ttlMs: number): number | null => {
      const row = this.statement(`SELECT holder, token, expires_at AS expiresAt FROM ${LEASES_TABLE} WHERE name = ?`).get(name) as LeaseRow | undefined;
      const next = nextLeaseTerm(row, holder, ttlMs, this.now());
      if (!next) return null;
      this.statement(
        `INSERT INTO ${LEASES_TABLE} (name, holder, token, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at`,
      ).run(name, next.holder, next.token, next.expiresAt);
      return next.token;
    });
    if (options.processedRetention)
      this.stopPruning = pruneProcessedPeriodically((before) => this.pruneProcessed(before), options.processedRetention.retentionMs, this.now);
    const rows = db.prepare(`SELECT spec FROM ${COLLECTIONS_TABLE}`).pluck().all() as string[];
    for (const row of rows) {
      const spec = JSON.parse(row) as CollectionSpec;
      this.specs.set(spec.name, spec);
    }
  }

  /** Opens (creating when missing) a database file; ':memory:' gives a private in-memory database. */
  static async open(file: string, options: SqliteStoreOptions = {}): Promise<SqliteDocumentStore> {
    preparePrivateDatabaseFile(file);
    const db = new Database(file);
    try {
      // Deleted and overwritten content is zeroed in the pages (not left in free space or on the
      // freelist), so what the WAL checkpoint writes back holds no remnant of it (see shredOnCommit).
      db.pragma('secure_delete = ON');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.exec(INTERNAL_SCHEMA);
      const store = new SqliteDocumentStore(db, options);
      if (!db.memory && options.backgroundCheckpoints !== false) store.stopCheckpoints = checkpointInBackground(file);
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  indexSteps(): IndexStep[] {
    return [...this.steps];
  }

  /**
   * Creates the collection's table, and makes its indexes what the spec declares, compared by their SQL
   * (planIndexes: missing ones created, changed ones replaced, the store's own that are no longer declared
   * dropped), in one transaction; with planOnly the changes are only worked out.
   */
  async register(spec: CollectionSpec): Promise<void> {
    assertCollectionName(spec.name);
    const [table, ...indexStatements] = collectionDdl(spec);
    const statementOf = new Map(indexStatements.map((statement) => [sqliteIndexShape(statement).name, statement]));
    const plan = () => {
      const existing = this.db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
        .pluck()
        .all(spec.name) as string[];
      return planIndexes(spec.name, indexStatements.map(sqliteIndexShape), existing.map(sqliteIndexShape));
    };
    if (this.planOnly) {
      this.steps.push(...plan());
      return;
    }
    const saved = { name: spec.name, indexes: (spec.indexes ?? []).map(savedIndex) };
    // IMMEDIATE: the write lock first (waiting busy_timeout for another process starting on the same file, a
    // second replica of the local profile), then the plan from the schema as it is under that lock.
    const steps = this.db
      .transaction(() => {
        this.db.exec(table!);
        const changes = plan();
        for (const step of changes) {
          if (step.action !== 'create') this.db.exec(`DROP INDEX "${step.action === 'replace' ? step.from.name : step.index.name}"`);
          if (step.action !== 'drop') this.db.exec(statementOf.get(step.index.name)!);
        }
        this.db
          .prepare(`INSERT INTO ${COLLECTIONS_TABLE} (name, spec) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET spec = excluded.spec`)
          .run(spec.name, JSON.stringify(saved));
        return changes;
      })
      .immediate();
    this.steps.push(...steps);
    this.specs.set(spec.name, saved);
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    assertCollectionName(name);
    return new SqliteCollection<T>(name, this);
  }

  async transaction<R>(work: (uow: UnitOfWork) => R | Promise<R>): Promise<R> {
    return runUnitOfWork(
      (name) => this.assertRegistered(name),
      work,
      (uow) => this.committer.commit(uow),
    );
  }

  async isProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    const found = this.statement(`SELECT 1 FROM ${PROCESSED_TABLE} WHERE consumer_group = ? AND event_id = ?`).pluck().get(consumerGroup, eventId);
    return found !== undefined;
  }

  async pruneProcessed(before: Date): Promise<number> {
    if (!this.db.open) return 0;
    return this.statement(`DELETE FROM ${PROCESSED_TABLE} WHERE processed_at < ?`).run(before.getTime()).changes;
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    // Units already queued commit now; a unit that reaches the queue later fails (connection closed).
    this.committer.flush();
    this.stopPruning();
    // Keeps planner statistics current for the expression indexes (cheap; SQLite's recommendation).
    this.db.pragma('optimize');
    this.stopCheckpoints();
    this.db.close();
    this.statements.clear();
  }

  /** @internal Prepared statements are cached by SQL text (queries are built from validated names only). */
  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_LIMIT) this.statements.clear();
      statement = this.db.prepare<SqlParam[]>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** @internal */
  assertRegistered(name: string): void {
    if (!this.specs.has(name)) throw new UnknownCollectionError(name);
  }

  /**
   * After a shredding commit: the WAL still holds the pages as they were before it (the old row, in
   * clear JSON with its ciphertexts and wrapped key). A TRUNCATE checkpoint copies the current pages
   * (zeroed where content was freed, secure_delete) into the database file and cuts the WAL to zero
   * bytes. It waits (busy_timeout) for readers of older snapshots. A checkpoint another connection is
   * running (the background checkpointer's PASSIVE one) makes it answer busy at once, without the busy
   * handler: it is tried again, a millisecond apart, for up to ERASE_WAL_PATIENCE_MS. What still keeps the
   * WAL after that (a reader holding an old snapshot for seconds) is truncated or overwritten by the next
   * shredding commit or automatic checkpoint.
   */
  private eraseWal(): void {
    if (this.db.memory) return;
    const giveUpAt = Date.now() + ERASE_WAL_PATIENCE_MS;
    for (;;) {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      if (result?.busy === 0 || Date.now() >= giveUpAt) return;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }

  /** Applies one unit's writes inside the group's transaction; a throw makes the group roll back (applyGroup). */
  private apply(uow: BufferedUnitOfWork): void {
    let current: WriteOp | undefined;
    try {
      for (const op of uow.ops) {
        current = op;
        this.applyOp(op);
      }
      current = undefined;
      if (uow.marks.length > 0) {
        const mark = this.statement(`INSERT INTO ${PROCESSED_TABLE} (consumer_group, event_id, processed_at) VALUES (?, ?, ?)`);
        const now = this.now();
        for (const { group, eventId } of uow.marks) mark.run(group, eventId, now);
      }
      if (uow.messages.length > 0) {
        const add = this.statement(`INSERT INTO ${OUTBOX_TABLE} (topic, key, value, headers) VALUES (?, ?, ?, ?)`);
        for (const message of uow.messages) add.run(message.topic, message.key, message.value, JSON.stringify(message.headers));
      }
    } catch (error) {
      throw this.translate(error, current);
    }
  }

  private applyOp(op: WriteOp): void {
    const table = `"${op.collection}"`;
    if (op.kind === 'insert') {
      this.statement(`INSERT INTO ${table} (id, merchant_id, version, data) VALUES (?, ?, 1, ?)`).run(op.id, op.partition, op.json);
      return;
    }
    if (op.kind === 'update') {
      const changed = this.statement(`UPDATE ${table} SET version = ?, data = ? WHERE id = ? AND merchant_id = ? AND version = ?`).run(
        op.version,
        op.json,
        op.id,
        op.partition,
        op.expectedVersion,
      ).changes;
      if (changed === 0) throw new ConcurrentModificationError(op.collection, op.id);
      return;
    }
    if (op.expectedVersion === undefined) {
      this.statement(`DELETE FROM ${table} WHERE id = ? AND merchant_id = ?`).run(op.id, op.partition);
      return;
    }
    const changed = this.statement(`DELETE FROM ${table} WHERE id = ? AND merchant_id = ? AND version = ?`).run(
      op.id,
      op.partition,
      op.expectedVersion,
    ).changes;
    if (changed === 0) throw new ConcurrentModificationError(op.collection, op.id);
  }

  private translate(error: unknown, op: WriteOp | undefined): unknown {
    const code = (error as { code?: unknown }).code;
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
    if (!op) return new DuplicateKeyError('processed_events', ['consumer_group', 'event_id']);
    const message = (error as Error).message;
    const index = (this.specs.get(op.collection)?.indexes ?? []).find((candidate) => message.includes(`'${indexName(op.collection, candidate)}'`));
    return new DuplicateKeyError(op.collection, index ? index.fields : ['id']);
  }
}

/** A unit of a group failed with `cause`: the group's transaction rolls back and is applied again without it. */
class UnitFailed extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super('a unit of the group failed');
  }
}

class SqliteCollection<T extends StoredDocument> implements Collection<T> {
  private readonly table: string;

  constructor(
    readonly name: string,
    private readonly store: SqliteDocumentStore,
  ) {
    this.table = `"${name}"`;
  }

  async get(scope: StoreScope, id: string): Promise<T | null> {
    this.store.assertRegistered(this.name);
    const data = this.store.statement(`SELECT data FROM ${this.table} WHERE id = ? AND merchant_id = ?`).pluck().get(id, partitionOf(scope)) as
      string | undefined;
    return data === undefined ? null : (JSON.parse(data) as T);
  }

  async findOne(scope: StoreScope, where: Where): Promise<T | null> {
    const page = await this.list(scope, where, { limit: 1 });
    return page.items[0] ?? null;
  }

  async getGlobal(id: string): Promise<T | null> {
    this.store.assertRegistered(this.name);
    const data = this.store.statement(`SELECT data FROM ${this.table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return data === undefined ? null : (JSON.parse(data) as T);
  }

  async findGlobal(where: Where): Promise<T | null> {
    return this.select(undefined, where, { limit: 1 }).items[0] ?? null;
  }

  async list(scope: StoreScope, where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select(partitionOf(scope), where, page);
  }

  async count(scope: StoreScope, where: Where): Promise<number> {
    this.store.assertRegistered(this.name);
    const params: SqlParam[] = [partitionOf(scope)];
    const clauses = ['merchant_id = ?', ...whereSql(parseWhere(where), params)];
    return this.store
      .statement(`SELECT count(*) FROM ${this.table} WHERE ${clauses.join(' AND ')}`)
      .pluck()
      .get(...params) as number;
  }

  async listAcrossMerchants(where: Where, page: PageRequest): Promise<Page<T>> {
    return this.select(undefined, where, page);
  }

  private select(partition: string | undefined, where: Where, request: PageRequest): Page<T> {
    this.store.assertRegistered(this.name);
    const { limit, after, order } = validatePage(request);
    const params: SqlParam[] = [];
    const clauses: string[] = [];
    if (partition !== undefined) {
      clauses.push('merchant_id = ?');
      params.push(partition);
    }
    clauses.push(...whereSql(parseWhere(where), params));
    if (after !== undefined) {
      clauses.push(order === 'asc' ? 'id > ?' : 'id < ?');
      params.push(after);
    }
    params.push(limit + 1);
    const filter = clauses.length > 0 ? ` WHERE ${clauses.join(' AND ')}` : '';
    const sql = `SELECT data FROM ${this.table}${filter} ORDER BY id ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = this.store
      .statement(sql)
      .pluck()
      .all(...params) as string[];
    return toPage(
      rows.map((data) => JSON.parse(data) as T),
      limit,
    );
  }
}

/**
 * An index as its CREATE INDEX statement says (ours, or sqlite_master's copy, which drops IF NOT EXISTS):
 * its name, whether unique, and its column list as one key, so two indexes are the same when their columns
 * (expressions included) are.
 */
function sqliteIndexShape(sql: string): IndexShape {
  const match = /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([^"\s]+)"?\s+ON\s+"?[^"\s(]+"?\s*\((.*)\)\s*$/is.exec(sql.trim());
  if (!match) throw new Error(`not an index statement: ${sql.slice(0, 80)}`);
  return { name: match[2]!, key: { [match[3]!.replace(/\s+/g, ' ').trim()]: 1 }, ...(match[1] ? { unique: true } : {}) };
}

import { resolve } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { preparePrivateDatabaseFile } from '@vaultline/store';
import type { BusMessage } from '../bus.port';
import type { AppendedRecord, LogAppend, LogRecord, LogStorage } from './log-storage.port';

interface MessageRow {
  seq: number;
  topic: string;
  key: string;
  value: string;
  headers: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bus_partitions (
    topic TEXT NOT NULL, part INTEGER NOT NULL, next_seq INTEGER NOT NULL,
    PRIMARY KEY (topic, part)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS bus_messages (
    topic TEXT NOT NULL, part INTEGER NOT NULL, seq INTEGER NOT NULL,
    key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, published_at INTEGER NOT NULL,
    PRIMARY KEY (topic, part, seq)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS bus_messages_published_at ON bus_messages (published_at);
  CREATE TABLE IF NOT EXISTS bus_group_offsets (
    group_name TEXT NOT NULL, topic TEXT NOT NULL, part INTEGER NOT NULL, next_seq INTEGER NOT NULL,
    PRIMARY KEY (group_name, topic, part)
  ) WITHOUT ROWID;
`;

/** Records kept in memory per partition: what consumers that keep up read next. */
const TAIL_RECORDS = 512;

/**
 * The embedded profile's durable log: one better-sqlite3 file in WAL mode. A message is durable
 * once publish returned; a group's offset once the handlers of its batch resolved. `bus_partitions` keeps the
 * next sequence per partition so pruning never makes offsets go back.
 *
 * The last records appended to each partition by this process's threads are also kept in memory, so
 * consumers that keep up read them without a query: a storage keeps its own appends and, for the topics
 * its bus consumes, those another thread's storage of the same file announces once committed. Only a contiguous run of offsets is kept
 * (another process appending to the same file, or two threads' announcements crossing, breaks the run,
 * and the tail starts again), and a read is served from it only when it starts inside the run:
 * anything before or after comes from the file.
 */
export class SqliteLogStorage implements LogStorage {
  private readonly db: Database.Database;
  private readonly statements;
  private readonly appendAll: (entries: LogAppend[]) => LogRecord[];
  private readonly writeOffsets: (offsets: PendingOffset[]) => void;
  private readonly tails = new Map<string, LogRecord[]>();
  /** Offsets committed since the last write, by group/topic/partition (see commit). */
  private readonly pendingOffsets = new Map<string, PendingOffset>();
  /** Every storage of this file in the process (other threads included) hears of the others' appends. */
  private readonly appends: BroadcastChannel;
  private offsetWrite: NodeJS.Timeout | undefined;
  private offsetRetry: NodeJS.Timeout | undefined;

  constructor(file: string) {
    preparePrivateDatabaseFile(file);
    this.db = new Database(file);
    this.appends = new BroadcastChannel(`vaultline-bus:${file === ':memory:' ? `memory:${Math.random()}` : resolve(file)}`);
    this.appends.unref();
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a process crash (not necessarily a power loss).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.statements = {
      nextSeq: this.db.prepare<[string, number], { seq: number }>(
        `INSERT INTO bus_partitions (topic, part, next_seq) VALUES (?, ?, 1)
         ON CONFLICT (topic, part) DO UPDATE SET next_seq = next_seq + 1
         RETURNING next_seq - 1 AS seq`,
      ),
      insert: this.db.prepare<[string, number, number, string, string, string, number]>(
        'INSERT INTO bus_messages (topic, part, seq, key, value, headers, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      read: this.db.prepare<[string, number, number, number], MessageRow>(
        'SELECT seq, topic, key, value, headers FROM bus_messages WHERE topic = ? AND part = ? AND seq >= ? ORDER BY seq LIMIT ?',
      ),
      committed: this.db.prepare<[string, string, number], { next_seq: number }>(
        'SELECT next_seq FROM bus_group_offsets WHERE group_name = ? AND topic = ? AND part = ?',
      ),
      commit: this.db.prepare<[string, string, number, number]>(
        `INSERT INTO bus_group_offsets (group_name, topic, part, next_seq) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_name, topic, part) DO UPDATE SET next_seq = excluded.next_seq`,
      ),
      prune: this.db.prepare<[number]>('DELETE FROM bus_messages WHERE published_at < ?'),
    };
    this.appendAll = this.db.transaction((entries: LogAppend[]) => {
      const now = Date.now();
      const appended: LogRecord[] = [];
      for (const { partition, message } of entries) {
        const row = this.statements.nextSeq.get(message.topic, partition);
        if (!row) throw new Error('sqlite bus: no sequence returned');
        this.statements.insert.run(message.topic, partition, row.seq, message.key, message.value, JSON.stringify(message.headers), now);
        appended.push({ offset: row.seq, message: { ...message, headers: { ...message.headers } } });
      }
      return appended;
    });
    this.writeOffsets = this.db.transaction((offsets: PendingOffset[]) => {
      for (const { group, topic, partition, nextOffset } of offsets) this.statements.commit.run(group, topic, partition, nextOffset);
    });
  }

  append(entries: LogAppend[]): void {
    const appended = this.appendAll(entries);
    // Only after the commit: a rolled-back append must not be readable.
    const broadcast: AppendedRecord[] = appended.map((record, index) => ({ partition: entries[index]!.partition, record }));
    for (const { partition, record } of broadcast) this.remember(record.message.topic, partition, record);
    // The other threads' storages keep the committed records in their tails too, so their consumers
    // read them without a query (which would also reload pages this append changed).
    this.appends.postMessage(broadcast);
  }

  onAppendElsewhere(listener: (appended: AppendedRecord[]) => void): () => void {
    const onMessage = (event: unknown): void => listener((event as { data: AppendedRecord[] }).data);
    this.appends.addEventListener('message', onMessage);
    return () => this.appends.removeEventListener('message', onMessage);
  }

  keepAppendedElsewhere(appended: AppendedRecord[]): void {
    for (const { partition, record } of appended) this.remember(record.message.topic, partition, record);
  }

  read(topic: string, partition: number, fromOffset: number, limit: number): LogRecord[] {
    const tail = this.tails.get(tailKey(topic, partition));
    const first = tail?.[0]?.offset;
    if (tail && first !== undefined && fromOffset >= first && fromOffset - first < tail.length) {
      return tail.slice(fromOffset - first, fromOffset - first + limit);
    }
    return this.statements.read.all(topic, partition, fromOffset, limit).map((row) => ({ offset: row.seq, message: toMessage(row) }));
  }

  private remember(topic: string, partition: number, record: LogRecord): void {
    const key = tailKey(topic, partition);
    const tail = this.tails.get(key);
    const last = tail?.[tail.length - 1];
    // Already kept, or older than the run (another thread's announcement arriving after this thread's own append).
    if (last && record.offset <= last.offset) return;
    if (!tail || !last || record.offset !== last.offset + 1) {
      this.tails.set(key, [record]);
      return;
    }
    tail.push(record);
    // Trimmed in chunks: one splice per TAIL_RECORDS appends, not one per append.
    if (tail.length >= 2 * TAIL_RECORDS) tail.splice(0, tail.length - TAIL_RECORDS);
  }

  committedOffset(group: string, topic: string, partition: number): number {
    const pending = this.pendingOffsets.get(offsetKey(group, topic, partition));
    if (pending) return pending.nextOffset;
    return this.statements.committed.get(group, topic, partition)?.next_seq ?? 0;
  }

  /**
   * Offsets committed within OFFSET_FLUSH_MS (every group, every partition) are written together in
   * one transaction, instead of one commit each: fewer WAL writes, and fewer moments when another
   * connection to the file (a service thread's) waits for the write lock. A crash in between delivers
   * those messages again, which at-least-once consumers already handle; this process reads its own
   * pending offsets, and close() writes them.
   */
  commit(group: string, topic: string, partition: number, nextOffset: number): void {
    this.pendingOffsets.set(offsetKey(group, topic, partition), { group, topic, partition, nextOffset });
    if (!this.offsetWrite && !this.offsetRetry) {
      this.offsetWrite = setTimeout(() => this.flushOffsets(), OFFSET_FLUSH_MS);
      this.offsetWrite.unref();
    }
  }

  /** Writes the pending offsets now; a failed write keeps them and tries again shortly. */
  flushOffsets(): void {
    clearTimeout(this.offsetWrite);
    clearTimeout(this.offsetRetry);
    this.offsetWrite = undefined;
    this.offsetRetry = undefined;
    if (this.pendingOffsets.size === 0 || !this.db.open) return;
    const offsets = [...this.pendingOffsets.values()];
    try {
      this.writeOffsets(offsets);
    } catch {
      // SQLITE_BUSY from another process, say: the offsets stay pending (and readable here).
      this.offsetRetry = setTimeout(() => this.flushOffsets(), OFFSET_RETRY_MS);
      this.offsetRetry.unref();
      return;
    }
    this.pendingOffsets.clear();
  }

  pruneBefore(time: Date): number {
    return this.statements.prune.run(time.getTime()).changes;
  }

  ping(): void {
    this.db.prepare('SELECT 1').get();
  }

  close(): void {
    if (!this.db.open) return;
    this.flushOffsets();
    clearTimeout(this.offsetRetry);
    this.appends.close();
    this.db.close();
  }
}

interface PendingOffset {
  group: string;
  topic: string;
  partition: number;
  nextOffset: number;
}

const OFFSET_FLUSH_MS = 100;
const OFFSET_RETRY_MS = 100;

function offsetKey(group: string, topic: string, partition: number): string {
  return `${group}\u0000${topic}\u0000${partition}`;
}

function tailKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

function toMessage(row: MessageRow): BusMessage {
  return { topic: row.topic, key: row.key, value: row.value, headers: JSON.parse(row.headers) as Record<string, string> };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, waitFor } from '@vaultline/core';
import { busContract } from '@vaultline/bus/testing';
import Database from 'better-sqlite3';
import { BroadcastWakeSource, LogBus, openBus, partitionOf, type LogRecord, type WakeSource } from '../src';
import { SqliteLogStorage } from '../src/log/sqlite-log-storage';
import { CachedLogStorage } from '../src/log/cached-log-storage';

function tempDir(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-bus-'));
  return { file: join(dir, 'bus.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

busContract(
  'sqlite',
  async () => {
    const { file, remove } = tempDir();
    const opened: Array<{ close(): Promise<void> }> = [];
    const bus = await openBus(`sqlite:${file}`);
    opened.push(bus);
    return {
      bus,
      reopen: async () => {
        const again = await openBus(`sqlite:${file}`);
        opened.push(again);
        return again;
      },
      cleanup: async () => {
        for (const each of opened) await each.close();
        remove();
      },
    };
  },
  { durable: true },
);

/** A bus as each thread of the embedded profile opens it: its own connection to the file, the tail cache, the wake source. */
function threadBus(file: string, options: { pollIntervalMs?: number; crossThreadWakeDelayMs?: number } = {}): { bus: LogBus; storage: CachedLogStorage } {
  const wakeSource = new BroadcastWakeSource(file);
  const storage = new CachedLogStorage(new SqliteLogStorage(file), { wakeSource });
  return { bus: new LogBus(storage, { ...options, wakeSource }), storage };
}

/** Deletes every message from the file behind the storages' backs: what they still read came from memory. */
function emptyTheFile(file: string): void {
  const raw = new Database(file);
  raw.prepare('DELETE FROM bus_messages').run();
  raw.close();
}

const message = (value: string, topic = 't') => ({ topic, key: 'k', value, headers: { h: '1' } });
const values = (records: LogRecord[]) => records.map((record) => `${record.offset}:${record.message.value}`);

describe('LogBus on SQLite', () => {
  it('when another process appends to the file, then the fallback poll delivers it', async () => {
    const { file, remove } = tempDir();
    const consumerSide = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 50 });
    const publisherSide = new LogBus(new SqliteLogStorage(file));
    const received: string[] = [];
    await consumerSide.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void received.push(d.value) });

    await publisherSide.publish([{ topic: 't', key: 'k', value: 'from elsewhere', headers: { a: 'b' } }]);

    await waitFor(() => received.length === 1);
    expect(received).toEqual(['from elsewhere']);
    await consumerSide.close();
    await publisherSide.close();
    remove();
  });

  it('when another thread’s bus of the file appends, then a consumer here wakes at once rather than at its next poll', async () => {
    const { file, remove } = tempDir();
    const consumerSide = threadBus(file, { pollIntervalMs: 60_000 }).bus;
    const publisherSide = threadBus(file, { pollIntervalMs: 60_000 }).bus;
    const received: string[] = [];
    await consumerSide.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void received.push(d.value) });
    await sleep(20);

    const published = Date.now();
    await publisherSide.publish([{ topic: 't', key: 'k', value: 'woken', headers: {} }]);

    await waitFor(() => received.length === 1, 2_000);
    expect(Date.now() - published).toBeLessThan(1_000);
    await consumerSide.close();
    await publisherSide.close();
    remove();
  });

  it('when the wake source announces records of a partition read here, then the storage keeps them in memory and reads them without a query', async () => {
    const { file, remove } = tempDir();
    const wakeSource = new BroadcastWakeSource(file);
    const here = new CachedLogStorage(new SqliteLogStorage(file), { wakeSource });
    const elsewhere = new SqliteLogStorage(file);
    const announcer = new BroadcastWakeSource(file);
    expect(here.read('t', 3, 0, 10)).toEqual([]); // a consumer here reads partition 3

    const announce = (records: LogRecord[]) => announcer.announce(records.map((record) => ({ partition: 3, record })));
    announce(
      elsewhere.append([
        { partition: 3, message: message('a') },
        { partition: 3, message: message('b') },
      ]),
    );
    announce(elsewhere.append([{ partition: 3, message: message('c') }]));
    await sleep(20); // the announcement crosses as a message
    emptyTheFile(file);

    expect(values(here.read('t', 3, 0, 10))).toEqual(['0:a', '1:b', '2:c']);
    expect(here.read('t', 3, 1, 1)).toEqual([{ offset: 1, message: message('b') }]);
    // Past the records kept, the file answers (and has nothing now).
    expect(here.read('t', 3, 3, 10)).toEqual([]);
    here.close();
    elsewhere.close();
    for (const source of [wakeSource, announcer]) source.close();
    remove();
  });

  it('when this storage appended after another thread did, then an older announcement arriving late leaves the kept records whole', async () => {
    const { file, remove } = tempDir();
    const wakeSource = new BroadcastWakeSource(file);
    const here = new CachedLogStorage(new SqliteLogStorage(file), { wakeSource });
    const elsewhere = new SqliteLogStorage(file);
    const announcer = new BroadcastWakeSource(file);
    here.read('t', 0, 0, 10);

    here.append([{ partition: 0, message: message('0') }]);
    const late = elsewhere.append([{ partition: 0, message: message('1') }]);
    here.append([{ partition: 0, message: message('2') }]); // before offset 1 is announced here
    announcer.announce(late.map((record) => ({ partition: 0, record })));
    await sleep(20);

    expect(here.read('t', 0, 0, 10).map((record) => record.message.value)).toEqual(['0', '1', '2']);
    here.close();
    elsewhere.close();
    for (const source of [wakeSource, announcer]) source.close();
    remove();
  });

  it('when another thread’s bus appends to a topic nobody here consumes, then this storage keeps none of it in memory', async () => {
    const { file, remove } = tempDir();
    const here = threadBus(file, { pollIntervalMs: 60_000, crossThreadWakeDelayMs: 1 });
    const elsewhere = threadBus(file, { pollIntervalMs: 60_000 }).bus;
    const received: string[] = [];
    await here.bus.subscribe({ topics: ['consumed'], group: 'g', handler: async (d) => void received.push(d.value) });
    await sleep(20);

    await elsewhere.publish([{ topic: 'ignored', key: 'k', value: 'not for us', headers: {} }]);
    await elsewhere.publish([{ topic: 'consumed', key: 'k', value: 'for us', headers: {} }]);
    await waitFor(() => received.length === 1, 2_000);
    emptyTheFile(file);

    const partition = partitionOf('k', 8);
    expect(values(here.storage.read('consumed', partition, 0, 10))).toEqual(['0:for us']);
    expect(here.storage.read('ignored', partition, 0, 10)).toEqual([]);
    await here.bus.close();
    await elsewhere.close();
    remove();
  });

  it('when another thread’s bus appends in many small commits, then a consumer here is woken once for several of them', async () => {
    const { file, remove } = tempDir();
    const consumerSide = threadBus(file, { pollIntervalMs: 60_000, crossThreadWakeDelayMs: 50 });
    const publisherSide = threadBus(file, { pollIntervalMs: 60_000 }).bus;
    const received: string[] = [];
    await consumerSide.bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void received.push(d.value) });
    await sleep(20);
    const reads = jest.spyOn(consumerSide.storage, 'read');

    for (let i = 0; i < 10; i++) {
      await publisherSide.publish([{ topic: 't', key: 'same-partition', value: String(i), headers: {} }]);
      await sleep(2); // each append announced on its own
    }

    await waitFor(() => received.length === 10, 2_000);
    expect(received).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // One read for the ten appends (a second if the gathering window closed in between), not ten.
    expect(reads.mock.calls.filter(([topic]) => topic === 't').length).toBeLessThanOrEqual(4);
    await consumerSide.bus.close();
    await publisherSide.close();
    remove();
  });

  it('when no wake source is given, then a bus of the file announces nothing and hears nothing', async () => {
    const { file, remove } = tempDir();
    const listening: WakeSource = new BroadcastWakeSource(file);
    const heard: unknown[] = [];
    listening.onAppend((appended) => heard.push(appended));
    const bus = await openBus(`sqlite:${file}`);

    await bus.publish([{ topic: 't', key: 'k', value: 'quiet', headers: {} }]);
    await sleep(20);

    expect(heard).toEqual([]);
    await bus.close();
    listening.close();
    remove();
  });

  it('when offsets are committed, then this storage reads them at once and another connection once they were written together', async () => {
    const { file, remove } = tempDir();
    const writer = new CachedLogStorage(new SqliteLogStorage(file));
    const reader = new SqliteLogStorage(file);
    const written = jest.spyOn(SqliteLogStorage.prototype, 'commit');

    writer.commit([{ group: 'g1', topic: 't', partition: 0, nextOffset: 3 }]);
    writer.commit([{ group: 'g2', topic: 't', partition: 1, nextOffset: 5 }]);
    writer.commit([{ group: 'g1', topic: 't', partition: 0, nextOffset: 4 }]);

    expect([writer.committedOffset('g1', 't', 0), writer.committedOffset('g2', 't', 1)]).toEqual([4, 5]);
    expect([reader.committedOffset('g1', 't', 0), reader.committedOffset('g2', 't', 1)]).toEqual([0, 0]);
    await waitFor(() => reader.committedOffset('g1', 't', 0) === 4, 1_000);
    expect([reader.committedOffset('g1', 't', 0), reader.committedOffset('g2', 't', 1)]).toEqual([4, 5]);
    expect(written).toHaveBeenCalledTimes(1);
    written.mockRestore();
    writer.close();
    reader.close();
    remove();
  });

  it('when the storage is closed with offsets not yet written, then closing writes them', async () => {
    const { file, remove } = tempDir();
    const storage = new CachedLogStorage(new SqliteLogStorage(file));

    storage.commit([{ group: 'g', topic: 't', partition: 0, nextOffset: 7 }]);
    storage.close();

    const reopened = new SqliteLogStorage(file);
    expect(reopened.committedOffset('g', 't', 0)).toBe(7);
    reopened.close();
    remove();
  });

  it('when old messages are pruned, then new messages of the partition still get fresh offsets', async () => {
    const { file, remove } = tempDir();
    const storage = new SqliteLogStorage(file);
    const message = { topic: 't', key: 'k', value: 'v', headers: {} };
    storage.append([
      { partition: 0, message },
      { partition: 0, message },
    ]);
    storage.commit([{ group: 'g', topic: 't', partition: 0, nextOffset: 2 }]);

    expect(storage.pruneBefore(new Date(Date.now() + 1_000))).toBe(2);
    storage.append([{ partition: 0, message: { ...message, value: 'after prune' } }]);

    expect(storage.read('t', 0, storage.committedOffset('g', 't', 0), 10)).toEqual([{ offset: 2, message: { ...message, value: 'after prune' } }]);
    storage.close();
    remove();
  });

  it('when two writers interleave appends to one partition, then reads from either see every record in offset order', async () => {
    const { file, remove } = tempDir();
    const a = new CachedLogStorage(new SqliteLogStorage(file));
    const b = new CachedLogStorage(new SqliteLogStorage(file));
    const entry = (value: string) => ({ partition: 0, message: { topic: 't', key: 'k', value, headers: { v: value } } });
    a.append([entry('a0'), entry('a1')]);
    b.append([entry('b2')]);
    a.append([entry('a3')]);
    a.append([entry('a4')]);

    const all = ['0:a0', '1:a1', '2:b2', '3:a3', '4:a4'];
    for (const reader of [a, b]) {
      expect(values(reader.read('t', 0, 0, 10))).toEqual(all);
      expect(values(reader.read('t', 0, 1, 10))).toEqual(all.slice(1));
      expect(values(reader.read('t', 0, 3, 1))).toEqual(['3:a3']);
      expect(values(reader.read('t', 0, 4, 10))).toEqual(['4:a4']);
      expect(reader.read('t', 0, 5, 10)).toEqual([]);
    }
    // What the in-memory tail serves is what the file holds, headers included.
    const plain = new SqliteLogStorage(file);
    expect(a.read('t', 0, 3, 10)).toEqual(plain.read('t', 0, 3, 10));
    for (const storage of [a, b, plain]) storage.close();
    remove();
  });

  it('when more records are appended than the in-memory tail keeps, then old offsets still read from the file', async () => {
    const { file, remove } = tempDir();
    const storage = new CachedLogStorage(new SqliteLogStorage(file));
    for (let i = 0; i < 1_500; i++) storage.append([{ partition: 1, message: { topic: 't', key: 'k', value: String(i), headers: {} } }]);
    for (const from of [0, 700, 1_000, 1_499]) {
      const page = storage.read('t', 1, from, 3);
      expect(page.map((r) => r.offset)).toEqual([from, from + 1, from + 2].filter((o) => o < 1_500));
      expect(page.map((r) => r.message.value)).toEqual(page.map((r) => String(r.offset)));
    }
    storage.close();
    remove();
  });
});

describe('the SQLite log file across releases', () => {
  /** A bus file as releases before the rowid message table wrote it: messages in a WITHOUT ROWID table. */
  function fileOfAnEarlierRelease(file: string): void {
    const raw = new Database(file);
    raw.exec(`
      CREATE TABLE bus_partitions (topic TEXT NOT NULL, part INTEGER NOT NULL, next_seq INTEGER NOT NULL, PRIMARY KEY (topic, part)) WITHOUT ROWID;
      CREATE TABLE bus_messages (
        topic TEXT NOT NULL, part INTEGER NOT NULL, seq INTEGER NOT NULL,
        key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, published_at INTEGER NOT NULL,
        PRIMARY KEY (topic, part, seq)
      ) WITHOUT ROWID;
      CREATE INDEX bus_messages_published_at ON bus_messages (published_at);
      CREATE TABLE bus_group_offsets (
        group_name TEXT NOT NULL, topic TEXT NOT NULL, part INTEGER NOT NULL, next_seq INTEGER NOT NULL, PRIMARY KEY (group_name, topic, part)
      ) WITHOUT ROWID;
      INSERT INTO bus_partitions VALUES ('payments', 2, 3);
      INSERT INTO bus_messages VALUES ('payments', 2, 0, 'k', 'first', '{"h":"1"}', 1000), ('payments', 2, 1, 'k', 'second', '{}', 2000), ('payments', 2, 2, 'k', 'third', '{}', 3000);
      INSERT INTO bus_group_offsets VALUES ('notifier', 'payments', 2, 1);
    `);
    raw.close();
  }

  const messagesTableSql = (file: string): string => {
    const raw = new Database(file, { readonly: true });
    const { sql } = raw.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'bus_messages'").get() as { sql: string };
    const indexes = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'bus_messages' AND sql IS NOT NULL").pluck().all();
    raw.close();
    return `${sql} | ${indexes.join(',')}`;
  };

  it('when a file of an earlier release is opened, then its messages move to the rowid table with their offsets, and appends go on from its sequence', () => {
    const { file, remove } = tempDir();
    fileOfAnEarlierRelease(file);
    const storage = new SqliteLogStorage(file);
    try {
      expect(messagesTableSql(file)).not.toMatch(/WITHOUT ROWID/i);
      expect(messagesTableSql(file)).toMatch(/bus_messages_published_at$/);
      expect(values(storage.read('payments', 2, 0, 10))).toEqual(['0:first', '1:second', '2:third']);
      expect(storage.read('payments', 2, 0, 1)[0]?.message.headers).toEqual({ h: '1' });
      expect(storage.committedOffset('notifier', 'payments', 2)).toBe(1);
      expect(storage.append([{ partition: 2, message: message('fourth', 'payments') }]).map((record) => record.offset)).toEqual([3]);
      expect(storage.pruneBefore(new Date(2500))).toBe(2);
      expect(values(storage.read('payments', 2, 0, 10))).toEqual(['2:third', '3:fourth']);
    } finally {
      storage.close();
      remove();
    }
  });

  it('when a second connection opens the upgraded file, then nothing moves again and both read the same log', () => {
    const { file, remove } = tempDir();
    fileOfAnEarlierRelease(file);
    const first = new SqliteLogStorage(file);
    const second = new SqliteLogStorage(file);
    try {
      first.append([{ partition: 2, message: message('fourth', 'payments') }]);
      expect(values(second.read('payments', 2, 0, 10))).toEqual(['0:first', '1:second', '2:third', '3:fourth']);
    } finally {
      first.close();
      second.close();
      remove();
    }
  });
});

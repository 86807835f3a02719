import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, waitFor } from '@vaultline/core';
import { busContract } from '@vaultline/bus/testing';
import { LogBus, openBus } from '../src';

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

describe('LogBus on SQLite', () => {
  it('when another process appends to the file, then the fallback poll delivers it', async () => {
    const { file, remove } = tempDir();
    const { LogBus } = await import('../src');
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const consumerSide = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 50 });
    const publisherSide = new LogBus(new SqliteLogStorage(file));
    const received: string[] = [];
    await consumerSide.subscribe({ topic: 't', group: 'g', handler: async (d) => void received.push(d.value) });

    await publisherSide.publish([{ topic: 't', key: 'k', value: 'from elsewhere', headers: { a: 'b' } }]);

    await waitFor(() => received.length === 1);
    expect(received).toEqual(['from elsewhere']);
    await consumerSide.close();
    await publisherSide.close();
    remove();
  });

  it('when another connection to the file appends, then a consumer here wakes at once rather than at its next poll', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    // As a service on its own thread would: its own storage of the same file, a poll far away.
    const consumerSide = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 60_000 });
    const publisherSide = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 60_000 });
    const received: string[] = [];
    await consumerSide.subscribe({ topic: 't', group: 'g', handler: async (d) => void received.push(d.value) });
    await sleep(20);

    const published = Date.now();
    await publisherSide.publish([{ topic: 't', key: 'k', value: 'woken', headers: {} }]);

    await waitFor(() => received.length === 1, 2_000);
    expect(Date.now() - published).toBeLessThan(1_000);
    await consumerSide.close();
    await publisherSide.close();
    remove();
  });

  it('when another connection to the file appends, then this storage hears of the committed records, keeps them in memory and reads them without a query', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const Database = (await import('better-sqlite3')).default;
    const here = new SqliteLogStorage(file);
    here.onAppendElsewhere((appended) => here.keepAppendedElsewhere(appended));
    const elsewhere = new SqliteLogStorage(file);
    const message = (value: string) => ({ topic: 't', key: 'k', value, headers: { h: '1' } });

    elsewhere.append([{ partition: 3, message: message('a') }, { partition: 3, message: message('b') }]);
    elsewhere.append([{ partition: 3, message: message('c') }]);
    await sleep(20); // the announcement crosses as a message
    // Proof that the reads below come from memory: the rows are gone from the file.
    const raw = new Database(file);
    raw.prepare('DELETE FROM bus_messages').run();
    raw.close();

    expect(here.read('t', 3, 0, 10).map((record) => [record.offset, record.message.value])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
    expect(here.read('t', 3, 1, 1)).toEqual([{ offset: 1, message: message('b') }]);
    // Past the records kept, the file answers (and has nothing now).
    expect(here.read('t', 3, 3, 10)).toEqual([]);
    here.close();
    elsewhere.close();
    remove();
  });

  it('when this storage appended after another connection did, then an older announcement arriving late leaves the kept records whole', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const here = new SqliteLogStorage(file);
    here.onAppendElsewhere((appended) => here.keepAppendedElsewhere(appended));
    const elsewhere = new SqliteLogStorage(file);
    const message = (value: string) => ({ topic: 't', key: 'k', value, headers: {} });

    here.append([{ partition: 0, message: message('0') }]);
    elsewhere.append([{ partition: 0, message: message('1') }]);
    here.append([{ partition: 0, message: message('2') }]); // before offset 1 is announced here
    await sleep(20);

    expect(here.read('t', 0, 0, 10).map((record) => record.message.value)).toEqual(['0', '1', '2']);
    here.close();
    elsewhere.close();
    remove();
  });

  it('when another connection appends to a topic nobody here consumes, then this bus keeps none of it in memory', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const storageHere = new SqliteLogStorage(file);
    const here = new LogBus(storageHere, { pollIntervalMs: 60_000, crossThreadWakeDelayMs: 1 });
    const elsewhere = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 60_000 });
    const received: string[] = [];
    await here.subscribe({ topic: 'consumed', group: 'g', handler: async (d) => void received.push(d.value) });
    const kept = jest.spyOn(storageHere, 'keepAppendedElsewhere');

    await elsewhere.publish([{ topic: 'ignored', key: 'k', value: 'not for us', headers: {} }]);
    await elsewhere.publish([{ topic: 'consumed', key: 'k', value: 'for us', headers: {} }]);

    await waitFor(() => received.length === 1, 2_000);
    expect(kept.mock.calls.flatMap(([appended]) => appended.map(({ record }) => record.message.topic))).toEqual(['consumed']);
    await here.close();
    await elsewhere.close();
    remove();
  });

  it('when another connection appends in many small commits, then a consumer here is woken once for several of them', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const consumerStorage = new SqliteLogStorage(file);
    const consumerSide = new LogBus(consumerStorage, { pollIntervalMs: 60_000, crossThreadWakeDelayMs: 50 });
    const publisherSide = new LogBus(new SqliteLogStorage(file), { pollIntervalMs: 60_000 });
    const received: string[] = [];
    await consumerSide.subscribe({ topic: 't', group: 'g', handler: async (d) => void received.push(d.value) });
    await sleep(20);
    const reads = jest.spyOn(consumerStorage, 'read');

    for (let i = 0; i < 10; i++) {
      await publisherSide.publish([{ topic: 't', key: 'same-partition', value: String(i), headers: {} }]);
      await sleep(2); // each append announced on its own
    }

    await waitFor(() => received.length === 10, 2_000);
    expect(received).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // One read for the ten appends (a second if the gathering window closed in between), not ten.
    expect(reads.mock.calls.filter(([topic]) => topic === 't').length).toBeLessThanOrEqual(4);
    await consumerSide.close();
    await publisherSide.close();
    remove();
  });

  it('when offsets are committed, then this storage reads them at once and another connection once they were written together', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const writer = new SqliteLogStorage(file);
    const reader = new SqliteLogStorage(file);

    writer.commit('g1', 't', 0, 3);
    writer.commit('g2', 't', 1, 5);
    writer.commit('g1', 't', 0, 4);

    expect([writer.committedOffset('g1', 't', 0), writer.committedOffset('g2', 't', 1)]).toEqual([4, 5]);
    expect([reader.committedOffset('g1', 't', 0), reader.committedOffset('g2', 't', 1)]).toEqual([0, 0]);
    await waitFor(() => reader.committedOffset('g1', 't', 0) === 4, 1_000);
    expect([reader.committedOffset('g1', 't', 0), reader.committedOffset('g2', 't', 1)]).toEqual([4, 5]);
    writer.close();
    reader.close();
    remove();
  });

  it('when the storage is closed with offsets not yet written, then closing writes them', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const storage = new SqliteLogStorage(file);

    storage.commit('g', 't', 0, 7);
    storage.close();

    const reopened = new SqliteLogStorage(file);
    expect(reopened.committedOffset('g', 't', 0)).toBe(7);
    reopened.close();
    remove();
  });

  it('when old messages are pruned, then new messages of the partition still get fresh offsets', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const storage = new SqliteLogStorage(file);
    const message = { topic: 't', key: 'k', value: 'v', headers: {} };
    storage.append([{ partition: 0, message }, { partition: 0, message }]);
    storage.commit('g', 't', 0, 2);

    expect(storage.pruneBefore(new Date(Date.now() + 1_000))).toBe(2);
    storage.append([{ partition: 0, message: { ...message, value: 'after prune' } }]);

    expect(storage.read('t', 0, storage.committedOffset('g', 't', 0), 10)).toEqual([{ offset: 2, message: { ...message, value: 'after prune' } }]);
    storage.close();
    remove();
  });

  it('when two writers interleave appends to one partition, then reads from either see every record in offset order', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const a = new SqliteLogStorage(file);
    const b = new SqliteLogStorage(file);
    const message = (value: string) => ({ partition: 0, message: { topic: 't', key: 'k', value, headers: { v: value } } });
    a.append([message('a0'), message('a1')]);
    b.append([message('b2')]);
    a.append([message('a3')]);
    a.append([message('a4')]);

    const values = (records: Array<{ offset: number; message: { value: string } }>) => records.map((r) => `${r.offset}:${r.message.value}`);
    const all = ['0:a0', '1:a1', '2:b2', '3:a3', '4:a4'];
    for (const reader of [a, b]) {
      expect(values(reader.read('t', 0, 0, 10))).toEqual(all);
      expect(values(reader.read('t', 0, 1, 10))).toEqual(all.slice(1));
      expect(values(reader.read('t', 0, 3, 1))).toEqual(['3:a3']);
      expect(values(reader.read('t', 0, 4, 10))).toEqual(['4:a4']);
      expect(reader.read('t', 0, 5, 10)).toEqual([]);
    }
    // What the in-memory tail serves is what the file holds, headers included.
    expect(a.read('t', 0, 3, 10)).toEqual(new SqliteLogStorage(file).read('t', 0, 3, 10));
    a.close();
    b.close();
    remove();
  });

  it('when more records are appended than the in-memory tail keeps, then old offsets still read from the file', async () => {
    const { file, remove } = tempDir();
    const { SqliteLogStorage } = await import('../src/log/sqlite-log-storage');
    const storage = new SqliteLogStorage(file);
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

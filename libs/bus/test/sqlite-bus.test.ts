import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { busContract } from '@vaultline/testing';
import { openBus } from '../src';

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
});

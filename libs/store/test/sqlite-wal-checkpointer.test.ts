import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { SqliteDocumentStore, type StoredDocument } from '../src';

interface Note extends StoredDocument {
  text: string;
}

describe('sqlite store: WAL checkpoints on a background thread', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vaultline-checkpoint-'));
    store = await SqliteDocumentStore.open(join(dir, 'store.db'));
    await store.register({ name: 'notes' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when commits stay far below the automatic checkpoint (1000 pages), then their pages still reach the database file within moments', async () => {
    const before = statSync(join(dir, 'store.db')).size;
    // About 100 pages of 4 KiB: the commits alone would leave them in the WAL.
    for (let i = 0; i < 100; i++)
      await store.transaction((uow) => uow.insert<Note>('notes', { id: `n${i}`, merchant_id: 'm1', mode: 'test' as const, text: 'x'.repeat(4000) }));
    await waitFor(() => statSync(join(dir, 'store.db')).size > before + 100 * 4000, 3_000);
    expect(await store.collection<Note>('notes').get({ merchantId: 'm1', mode: 'test' }, 'n99')).toMatchObject({ text: 'x'.repeat(4000) });
  });

  it('when the store closes, then the -wal and -shm files are gone at once, as the last connection removes them', async () => {
    await store.transaction((uow) => uow.insert<Note>('notes', { id: 'n1', merchant_id: 'm1', mode: 'test' as const, text: 'x' }));
    await store.close();
    expect(readdirSync(dir).sort()).toEqual(['store.db']);
  });
});

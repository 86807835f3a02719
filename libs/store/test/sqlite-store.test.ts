import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore, type DocumentStore } from '../src';
import { storeContract } from '@vaultline/store/testing';

storeContract(
  'sqlite (file)',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vaultline-sqlite-'));
    const file = join(dir, 'nested', 'store.db');
    const open: DocumentStore[] = [await SqliteDocumentStore.open(file)];
    return {
      store: open[0]!,
      reopen: async () => {
        const store = await SqliteDocumentStore.open(file);
        open.push(store);
        return store;
      },
      cleanup: async () => {
        for (const store of open) await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { durable: true },
);

storeContract('sqlite (:memory:)', async () => {
  const store = await SqliteDocumentStore.open(':memory:');
  return { store, cleanup: () => store.close() };
});

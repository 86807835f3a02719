import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDocumentStore, SqliteDocumentStore, type DocumentStore } from '../index';
import { describeWithMongo, withMongoDatabase } from '@vaultline/testing';

type OpenStore = () => Promise<DocumentStore>;

/** Closes every store an adapter's `open` handed out, once the adapter's block is done. */
function tracked(openOne: () => Promise<DocumentStore>): { open: OpenStore; closeAll(): Promise<void> } {
  const opened: DocumentStore[] = [];
  return {
    open: async () => {
      const store = await openOne();
      opened.push(store);
      return store;
    },
    closeAll: async () => {
      for (const store of opened.splice(0)) await store.close();
    },
  };
}

/**
 * Runs `body` once per DocumentStore adapter — memory, sqlite (a temp file per open) and mongodb
 * (a database per open; skipped with one line when no MongoDB is found) — each in its own describe.
 * `open()` gives a fresh, empty store; the helper closes them all after the block.
 *
 *   forEachStoreAdapter('PaymentRepository', (open) => {
 *     let repo: PaymentRepository;
 *     beforeEach(async () => { repo = await paymentRepository(await open()); });
 *     it('when …, then …', async () => { … });
 *   });
 */
export function forEachStoreAdapter(describeName: string, body: (open: OpenStore) => void): void {
  describe(describeName, () => {
    describe('memory', () => {
      const stores = tracked(async () => new MemoryDocumentStore());
      afterAll(() => stores.closeAll());
      body(stores.open);
    });

    describe('sqlite', () => {
      let dir: string | undefined;
      let files = 0;
      const stores = tracked(async () => {
        dir ??= mkdtempSync(join(tmpdir(), 'vaultline-store-'));
        return SqliteDocumentStore.open(join(dir, `store-${++files}.db`));
      });
      afterAll(async () => {
        await stores.closeAll();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });
      body(stores.open);
    });

    describeWithMongo('mongodb', `${describeName} on MongoDB`, (mongoUrl) => {
      const urls: string[] = [];
      const stores = tracked(async () => {
        const url = withMongoDatabase(mongoUrl(), `vaultline_test_${randomUUID().replace(/-/g, '')}`);
        urls.push(url);
        const { MongoDocumentStore } = await import('../mongo/mongo-store');
        return MongoDocumentStore.connect(url);
      });
      afterAll(async () => {
        await stores.closeAll();
        const { dropMongoDatabase } = await import('../mongo/mongo-store');
        for (const url of urls.splice(0)) await dropMongoDatabase(url);
      });
      body(stores.open);
    });
  });
}

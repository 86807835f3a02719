import { randomUUID } from 'node:crypto';
import { storeContract } from '@vaultline/store/testing';
import { describeWithMongo, withMongoDatabase } from '@vaultline/testing';
import { MongoDocumentStore, dropMongoDatabase } from '../src/mongo/mongo-store';
import type { DocumentStore } from '../src';

// Runs against MONGO_URL (a replica set) or a mongo:7 container; skipped with one line otherwise.
describeWithMongo('MongoDocumentStore', 'MongoDB store contract', (mongoUrl) => {
  storeContract(
    'mongodb',
    async () => {
      const url = withMongoDatabase(mongoUrl(), `vaultline_test_${randomUUID().replace(/-/g, '')}`);
      const open: DocumentStore[] = [await MongoDocumentStore.connect(url)];
      return {
        store: open[0]!,
        reopen: async () => {
          const store = await MongoDocumentStore.connect(url);
          open.push(store);
          return store;
        },
        cleanup: async () => {
          for (const store of open) await store.close();
          await dropMongoDatabase(url);
        },
      };
    },
    { durable: true },
  );
});

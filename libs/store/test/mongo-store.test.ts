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

// Production services open their store in `verify` mode; the migrate command in `create` mode.
describeWithMongo('MongoDocumentStore indexes', 'MongoDB indexes: migrate creates, services verify', (mongoUrl) => {
  const urls: string[] = [];
  const fresh = () => {
    const url = withMongoDatabase(mongoUrl(), `vaultline_test_${randomUUID().replace(/-/g, '')}`);
    urls.push(url);
    return url;
  };
  afterAll(async () => {
    for (const url of urls) await dropMongoDatabase(url);
  });

  it('when a service starts on a database the migrate command never prepared, then opening the store fails naming the missing collections and indexes', async () => {
    await expect(MongoDocumentStore.connect(fresh(), { indexes: 'verify' })).rejects.toThrow(
      /indexes missing or different: .*_vl_processed_events.*Run the migrate command/,
    );
  });

  it('when the migrate command ran, then a service opens the store in verify mode and registers its collections without creating anything; a collection migrate did not make is named', async () => {
    const url = fresh();
    const migrate = await MongoDocumentStore.connect(url, { indexes: 'create', processedRetention: { retentionMs: 14 * 86_400_000 } });
    await migrate.register({ name: 'payments', indexes: [{ fields: ['reference'], unique: true }] });
    await migrate.close();

    const service = await MongoDocumentStore.connect(url, { indexes: 'verify' });
    try {
      await expect(service.register({ name: 'payments', indexes: [{ fields: ['reference'], unique: true }] })).resolves.toBeUndefined();
      await expect(service.register({ name: 'refunds' })).rejects.toThrow(/indexes missing or different: collection refunds/);
    } finally {
      await service.close();
    }
  });

  it('when a release no longer declares a unique index, then a dry run lists its drop and changes nothing, verify still starts, and migrate drops it (the constraint stops holding)', async () => {
    const url = fresh();
    const first = await MongoDocumentStore.connect(url, { indexes: 'create' });
    await first.register({ name: 'payments', indexes: [{ fields: ['reference'], unique: true }] });
    await first.close();

    const plan = await MongoDocumentStore.connect(url, { indexes: 'plan' });
    await plan.register({ name: 'payments', indexes: [] });
    expect(plan.indexSteps().map((step) => `${step.action} ${step.index.name}`)).toEqual([expect.stringMatching(/^drop ux_payments_reference_/)]);
    await plan.close();

    const service = await MongoDocumentStore.connect(url, { indexes: 'verify' });
    await expect(service.register({ name: 'payments', indexes: [] })).resolves.toBeUndefined();
    // Another shape under the declared fields: verify names it, it does not start.
    await expect(service.register({ name: 'payments', indexes: [{ fields: ['reference'] }] })).rejects.toThrow(/create payments\.ix_payments_reference_/);
    await service.close();

    const next = await MongoDocumentStore.connect(url, { indexes: 'create' });
    await next.register({ name: 'payments', indexes: [] });
    expect(next.indexSteps().map((step) => step.action)).toEqual(['drop']);
    await next.register({ name: 'payments', indexes: [] });
    expect(next.indexSteps()).toHaveLength(1);
    await next.close();
  });
});

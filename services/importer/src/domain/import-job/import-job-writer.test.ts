import { newId, systemClock, type Scope } from '@vaultline/core';
import { MemoryDocumentStore, openStore, type DocumentStore, type StoreScope } from '@vaultline/store';
import { IMPORT_ITEMS, registerImportCollections, StoreImportJobRepository } from '../../data/import-job.repository';
import { newImportJob, type ImportItem, type ImportJob } from './import-job';
import { importJobWriter, type ImportJobWriter } from './import-job-writer';

// A live job: its items and counts live in the merchant's live partition.
const MERCHANT: Scope = { merchantId: 'merchant_repo', mode: 'live' };

/** Counts the store's commits, to see how many units of work the outcomes took. */
function countingCommits(store: DocumentStore): { store: DocumentStore; commits: () => number } {
  let commits = 0;
  const transaction = store.transaction.bind(store);
  store.transaction = (work) => {
    commits += 1;
    return transaction(work);
  };
  return { store, commits: () => commits };
}

describe.each([
  ['memory', async () => new MemoryDocumentStore() as DocumentStore],
  ['sqlite', () => openStore('sqlite::memory:')],
])('counting the outcomes of an import job (%s store)', (_adapter, openTestStore) => {
  let store: DocumentStore;
  let repository: StoreImportJobRepository;
  let writer: ImportJobWriter;
  let job: ImportJob;

  beforeEach(async () => {
    store = await openTestStore();
    await registerImportCollections(store);
    repository = new StoreImportJobRepository(store);
    // Looked up at each call, so that countingCommits sees the writer's commits.
    writer = importJobWriter({ jobs: repository, transaction: (work) => store.transaction(work), clock: systemClock });
    job = await store.transaction((uow) =>
      repository.insert(uow, newImportJob({ id: newId(), scope: MERCHANT, provider: 'provider_a', sealedCredentials: 'sealed', now: new Date() })),
    );
  });
  afterEach(async () => store.close());

  const items = async () => (await store.collection<ImportItem>(IMPORT_ITEMS).list(MERCHANT, { job_id: job.id }, { limit: 1000 })).items;

  it('when many outcomes of one job arrive at once, then they are committed together in a few units of work and every one is counted exactly', async () => {
    const { commits } = countingCommits(store);

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        writer.recordOutcome(MERCHANT, job.id, `pm_${i}`, i % 10 === 0 ? 'failed' : 'imported', i % 10 === 0 ? 'card_declined' : null),
      ),
    );

    expect(answers.every((answer) => answer !== null)).toBe(true);
    const stored = await repository.get(MERCHANT, job.id);
    expect(stored?.counts).toEqual({ total: 0, imported: 36, updated: 0, failed: 4, imported_without_security_code: 0 });
    expect(stored?.failure_reasons).toEqual({ card_declined: 4 });
    expect(await items()).toHaveLength(40);
    // The first outcome commits alone; all that arrived while it was committing share the next commit.
    expect(commits()).toBeLessThanOrEqual(3);
  });

  it('when a batch repeats a business key, or names one already accounted for, then it is counted once and the repeat answers null', async () => {
    await writer.recordOutcome(MERCHANT, job.id, 'pm_done', 'imported', null);

    const answers = await Promise.all([
      writer.recordOutcome(MERCHANT, job.id, 'pm_done', 'updated', null),
      writer.recordOutcome(MERCHANT, job.id, 'pm_new', 'imported', null),
      writer.recordOutcome(MERCHANT, job.id, 'pm_new', 'updated', null),
      writer.recordOutcome(MERCHANT, job.id, 'pm_other', 'updated', null),
    ]);

    expect(answers.map((answer) => answer !== null)).toEqual([false, true, false, true]);
    expect((await repository.get(MERCHANT, job.id))?.counts).toEqual({ total: 0, imported: 2, updated: 1, failed: 0, imported_without_security_code: 0 });
    expect((await items()).map((item) => item.business_key).sort()).toEqual(['pm_done', 'pm_new', 'pm_other']);
  });

  it('when outcomes say the token holds no security code, then they are counted apart from the others, failures never', async () => {
    await Promise.all([
      writer.recordOutcome(MERCHANT, job.id, 'pm_with', 'imported', null, false),
      writer.recordOutcome(MERCHANT, job.id, 'pm_without', 'imported', null, true),
      writer.recordOutcome(MERCHANT, job.id, 'pm_updated_without', 'updated', null, true),
      writer.recordOutcome(MERCHANT, job.id, 'pm_failed', 'failed', 'invalid_card_number', true),
    ]);

    expect((await repository.get(MERCHANT, job.id))?.counts).toEqual({ total: 0, imported: 2, updated: 1, failed: 1, imported_without_security_code: 2 });
    expect(
      (await items())
        .filter((item) => item.without_security_code)
        .map((item) => item.business_key)
        .sort(),
    ).toEqual(['pm_updated_without', 'pm_without']);
  });

  it('when the job is named in the other mode, then nothing is counted and nothing changes', async () => {
    const testMode: Scope = { merchantId: MERCHANT.merchantId, mode: 'test' };

    expect(await writer.recordOutcome(testMode, job.id, 'pm_1', 'imported', null)).toBeNull();
    expect(await writer.change(testMode, job.id, (current) => ({ job: { ...current, state: 'failed' } }))).toBeNull();

    expect(await repository.get(MERCHANT, job.id)).toMatchObject({ state: 'preparing', version: 1, counts: { imported: 0 } });
    expect(await items()).toEqual([]);
    expect(await store.collection<ImportItem>(IMPORT_ITEMS).count(testMode, {})).toBe(0);
  });

  it('when another process recorded a business key after it was looked up, then the batch is recorded one by one and that key counts once', async () => {
    // Simulates the other process: its item commits between this batch's lookup and its commit.
    const findOne = store.collection<ImportItem>(IMPORT_ITEMS).findOne;
    const collection = store.collection.bind(store);
    let raced = false;
    store.collection = ((name: string) => {
      const real = collection(name);
      if (name !== IMPORT_ITEMS || raced) return real;
      return {
        ...real,
        findOne: async (scope: StoreScope, where: Record<string, unknown>) => {
          const answer = await findOne.call(real, scope, where as never);
          if (!raced && where.business_key === 'pm_raced') {
            raced = true;
            await store.transaction((uow) =>
              uow.insert<ImportItem>(IMPORT_ITEMS, {
                id: newId(),
                merchant_id: MERCHANT.merchantId,
                mode: MERCHANT.mode,
                job_id: job.id,
                business_key: 'pm_raced',
                outcome: 'imported',
                reason: null,
                recorded_at: new Date().toISOString(),
              }),
            );
          }
          return answer;
        },
      };
    }) as typeof store.collection;

    const answers = await Promise.all([
      writer.recordOutcome(MERCHANT, job.id, 'pm_raced', 'imported', null),
      writer.recordOutcome(MERCHANT, job.id, 'pm_fine', 'imported', null),
    ]);

    expect(answers.map((answer) => answer !== null)).toEqual([false, true]);
    expect((await repository.get(MERCHANT, job.id))?.counts.imported).toBe(1);
    expect((await items()).map((item) => item.business_key).sort()).toEqual(['pm_fine', 'pm_raced']);
  });
});

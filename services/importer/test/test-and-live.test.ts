import { waitFor, type Scope } from '@vaultline/core';
import { insertWrittenBeforeModes } from '@vaultline/store/testing';
import { newImportJob, type ImportItem, type ImportJob } from '../src/domain/import-job/import-job';
import { IMPORT_ITEMS, IMPORT_JOBS } from '../src/data/import-job.repository';
import { captureTopics } from '../../vault/test/vault-harness';
import { MERCHANT, MERCHANT_LIVE, MERCHANT_TEST, PLATFORM_KEY, startImportFixture, vaultTokens, type ImportFixture } from './support/import-fixture';

type JobBody = { id: string; state: string; livemode: boolean; counts: { total: number; imported: number } };

describe('test and live imports: a job belongs to the mode of the key that created it', () => {
  let fixture: ImportFixture;
  beforeAll(async () => {
    fixture = await startImportFixture({ simulator: { customers: 2, cardsPerCustomer: 3 } });
  });
  afterAll(async () => fixture.stop());

  const startImport = async (key: Scope) => {
    const answer = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } }, key);
    expect(answer.status).toBe(201);
    return answer.body as unknown as JobBody;
  };
  const jobEnds = (key: Scope, id: string) =>
    waitFor(async () => {
      const body = (await fixture.call('GET', `/tokens/imports/${id}`, undefined, key)).body as unknown as JobBody;
      return body.state === 'finished' || body.state === 'failed' ? body : null;
    }, 10_000);

  it('when a live key starts an import, then the job is live, its key is minted live, its tokens are live ones only, and its events say livemode', async () => {
    const events = await captureTopics(fixture.bus, ['importer.imports']);
    const testTokensBefore = (await vaultTokens(fixture, MERCHANT_TEST)).length;

    const created = await startImport(MERCHANT_LIVE);
    expect(created).toMatchObject({ livemode: true, state: 'preparing' });
    const job = await jobEnds(MERCHANT_LIVE, created.id);

    expect(job).toMatchObject({ state: 'finished', livemode: true, counts: { total: 6, imported: 6 } });
    expect([...fixture.gateway.keys.values()].find((key) => key.label === `import ${created.id}`)).toMatchObject({ mode: 'live', merchantId: MERCHANT });
    expect(await vaultTokens(fixture, MERCHANT_LIVE)).toHaveLength(6);
    expect(await vaultTokens(fixture, MERCHANT_TEST)).toHaveLength(testTokensBefore);
    await waitFor(() => events.events().some((e) => e.type === 'import.completed'));
    expect(events.events().map((e) => [e.type, e.merchant_id, e.livemode])).toEqual([
      ['import.started', MERCHANT, true],
      ['import.completed', MERCHANT, true],
    ]);
    await events.stop();
  });

  it.each([
    ['a test key', MERCHANT_LIVE, MERCHANT_TEST],
    ['a live key', MERCHANT_TEST, MERCHANT_LIVE],
  ])(
    "when %s asks for a job of the other mode, then it answers 404 import_not_found, as for another merchant's, and its list does not show it",
    async (_name, owner, other) => {
      const created = await startImport(owner);
      await jobEnds(owner, created.id);

      const read = await fixture.call('GET', `/tokens/imports/${created.id}`, undefined, other);
      expect(read.status).toBe(404);
      expect(read.body).toMatchObject({ code: 'import_not_found' });
      const otherList = (await fixture.call('GET', '/tokens/imports?limit=100', undefined, other)).body.data as JobBody[];
      expect(otherList.map((job) => job.id)).not.toContain(created.id);
      expect(otherList.every((job) => job.livemode === (other.mode === 'live'))).toBe(true);
      const ownList = (await fixture.call('GET', '/tokens/imports?limit=100', undefined, owner)).body.data as JobBody[];
      expect(ownList.find((job) => job.id === created.id)).toMatchObject({ livemode: owner.mode === 'live' });
    },
  );
});

describe('import jobs written before modes (start-up migration)', () => {
  it('when the importer starts on them, then they are test-mode jobs: the test key reads them with livemode false, a live key gets 404', async () => {
    const fixture = await startImportFixture();
    try {
      const { mode: _mode, ...earlier } = newImportJob({
        id: '01900000-0000-7000-8000-0000000000e1',
        scope: MERCHANT_TEST,
        provider: 'provider_a',
        sealedCredentials: 'sealed',
        now: new Date(),
      });
      const { sealed_credentials: _credentials, ...finished } = { ...earlier, state: 'finished' as const, finished_at: new Date().toISOString() };
      await insertWrittenBeforeModes<ImportJob>(fixture.importerStore, IMPORT_JOBS, [finished]);
      await insertWrittenBeforeModes<ImportItem>(fixture.importerStore, IMPORT_ITEMS, [
        {
          id: '01900000-0000-7000-8000-0000000000e2',
          merchant_id: MERCHANT,
          job_id: finished.id,
          business_key: 'pm_1',
          outcome: 'imported',
          reason: null,
          recorded_at: new Date().toISOString(),
        },
      ]);

      await fixture.restartImporter();

      expect((await fixture.call('GET', `/tokens/imports/${finished.id}`, undefined, MERCHANT_TEST)).body).toMatchObject({
        id: finished.id,
        livemode: false,
        state: 'finished',
      });
      expect((await fixture.call('GET', `/tokens/imports/${finished.id}`, undefined, MERCHANT_LIVE)).status).toBe(404);
      expect(await fixture.importerStore.collection<ImportItem>(IMPORT_ITEMS).findOne(MERCHANT_TEST, { job_id: finished.id })).toMatchObject({
        mode: 'test',
        business_key: 'pm_1',
      });
      for (const collection of [IMPORT_JOBS, IMPORT_ITEMS]) {
        expect((await fixture.importerStore.collection(collection).listAcrossMerchants({ mode: null }, { limit: 10 })).items).toEqual([]);
      }
    } finally {
      await fixture.stop();
    }
  });
});

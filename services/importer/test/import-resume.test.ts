import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { SqliteDocumentStore } from '@vaultline/store';
import type { ImportJob } from '../src/domain/import-job/import-job';
import { IMPORT_JOBS } from '../src/data/import-job.repository';
import { MERCHANT_TEST, PLATFORM_KEY, startImportFixture, vaultTokens, type ImportFixture } from './support/import-fixture';

const CARDS = 60;

describe('an import interrupted while running', () => {
  let fixture: ImportFixture;
  let store: SqliteDocumentStore;
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'importer-resume-'));
    store = await SqliteDocumentStore.open(join(dir, 'importer.db'));
    fixture = await startImportFixture({
      importerStore: store,
      simulator: { customers: 20, cardsPerCustomer: 3 },
      env: { IMPORTER_CONCURRENCY: '1', IMPORTER_CHECKPOINT_EVERY: '2', IMPORTER_SCAN_INTERVAL_MS: '100', IMPORTER_LEASE_MS: '400' },
    });
  });

  afterEach(async () => {
    await fixture.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const jobs = () => store.collection<ImportJob>(IMPORT_JOBS);

  const startAndStopMidway = async (): Promise<ImportJob> => {
    const created = await fixture.call('POST', '/tokens/imports', { provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } });
    const id = String(created.body.id);
    await waitFor(async () => ((await jobs().get(MERCHANT_TEST, id))?.counts.imported ?? 0) >= 8);
    await fixture.stopImporter();
    const stopped = (await jobs().get(MERCHANT_TEST, id))!;
    expect(stopped.state).toBe('running');
    expect(stopped.checkpoint.enumerated).toBeGreaterThan(0);
    expect(stopped.checkpoint.enumerated).toBeLessThan(CARDS);
    return stopped;
  };

  const finishedJob = (id: string) =>
    waitFor(async () => {
      const job = await jobs().get(MERCHANT_TEST, id);
      return job?.state === 'finished' ? job : null;
    }, 15_000);

  it('when the service stops mid-job and a new one starts on the same store, then the job resumes from its checkpoint and finishes with one token per payment method', async () => {
    const stopped = await startAndStopMidway();
    const forwardedBefore = fixture.simulator.stats.forwardRequests;
    expect(stopped.lease_owner).toBeNull();

    await fixture.startImporter({ IMPORTER_WORKER_ID: 'importer-test-2' });
    const job = await finishedJob(stopped.id);

    expect(job.counts).toEqual({ total: CARDS, imported: CARDS, updated: 0, failed: 0, imported_without_security_code: 0 });
    const tokens = await vaultTokens(fixture);
    expect(new Set(tokens.map((t) => t.business_key)).size).toBe(CARDS);
    expect(tokens).toHaveLength(CARDS);
    // Resumed, not restarted: the second run forwarded only what was left.
    expect(fixture.simulator.stats.forwardRequests).toBe(CARDS);
    expect(forwardedBefore).toBeLessThan(CARDS);
    expect([...fixture.simulator.stats.forwardsByPaymentMethod.values()].every((n) => n === 1)).toBe(true);
  });

  it('when the process died holding the job (lease left behind, checkpoint behind its progress), then another worker takes it over once the lease expires and no token is duplicated', async () => {
    const stopped = await startAndStopMidway();
    // What a killed process leaves: its lease, and a checkpoint older than the work it had done.
    await store.transaction((uow) =>
      uow.update<ImportJob>(IMPORT_JOBS, {
        ...stopped,
        lease_owner: 'killed-worker',
        lease_expires_at: new Date(Date.now() + 300).toISOString(),
        checkpoint: { position: null, enumerated: 0, listing_complete: false },
        counts: { ...stopped.counts, total: 0 },
      }),
    );

    await fixture.startImporter({ IMPORTER_WORKER_ID: 'importer-test-3' });
    const job = await finishedJob(stopped.id);

    expect(job.counts).toEqual({ total: CARDS, imported: CARDS, updated: 0, failed: 0, imported_without_security_code: 0 });
    const tokens = await vaultTokens(fixture);
    expect(tokens).toHaveLength(CARDS);
    expect(new Set(tokens.map((t) => t.business_key)).size).toBe(CARDS);
    // The payment methods done before the "crash" were asked again with the same Idempotency-Key
    // (job id + payment method): the platform replayed its saved answers, no card went out twice.
    expect(fixture.simulator.stats.idempotentReplays).toBeGreaterThan(0);
    expect([...fixture.simulator.stats.forwardsByPaymentMethod.values()].every((n) => n === 1)).toBe(true);
    expect(fixture.simulator.stats.forwardsWithCvc.size).toBe(CARDS);
  });
});

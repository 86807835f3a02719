import { newId, type Clock } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError, type DocumentStore, type Page, type PageRequest, type Where } from '@vaultline/store';
import { withOutcome, type ImportItem, type ImportJob, type ImportOutcome } from '../domain/import-job';
import type { ImportJobRepository, JobChange } from '../domain/ports';
import { importEventMessage } from './import-events.mapper';
import { KeyedMutex } from './keyed-mutex';

export const IMPORT_JOBS = 'import_jobs';
export const IMPORT_ITEMS = 'import_items';
const MAX_CONFLICT_RETRIES = 50;

interface PendingOutcome {
  businessKey: string;
  outcome: ImportOutcome;
  reason: string | null;
  resolve(job: ImportJob | null): void;
  reject(error: unknown): void;
}

export async function registerImportCollections(store: DocumentStore): Promise<void> {
  await store.register({ name: IMPORT_JOBS, indexes: [{ fields: ['state'] }] });
  await store.register({ name: IMPORT_ITEMS, indexes: [{ fields: ['job_id', 'business_key'], unique: true }] });
}

/**
 * Import jobs and their accounted payment methods over the DocumentStore port. Updates of one job
 * are serialised in this process (the runner's checkpoints and the consumer's counts meet on the
 * same document) and retried on a version conflict with another process.
 */
export class StoreImportJobRepository implements ImportJobRepository {
  private readonly mutex = new KeyedMutex();
  /** Outcomes waiting for their job's next write, by merchant and job id. */
  private readonly openBatches = new Map<string, PendingOutcome[]>();

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  private get jobs() {
    return this.store.collection<ImportJob>(IMPORT_JOBS);
  }

  private get items() {
    return this.store.collection<ImportItem>(IMPORT_ITEMS);
  }

  async create(job: Omit<ImportJob, 'version'>): Promise<ImportJob> {
    return this.store.transaction((uow) => uow.insert<ImportJob>(IMPORT_JOBS, job));
  }

  get(merchantId: string, id: string): Promise<ImportJob | null> {
    return this.jobs.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<Page<ImportJob>> {
    return this.jobs.list(merchantId, {}, page);
  }

  listAcrossMerchants(where: { states: ImportJob['state'][]; keyNotRevoked?: boolean }, page: PageRequest): Promise<Page<ImportJob>> {
    const filter: Where = { state: { in: where.states } };
    if (where.keyNotRevoked) {
      filter.import_key_revoked = false;
      filter.import_key_id = { ne: null };
    }
    return this.jobs.listAcrossMerchants(filter, page);
  }

  async mutate(merchantId: string, id: string, change: (current: ImportJob) => JobChange): Promise<ImportJob | null> {
    return this.mutex.run(id, () =>
      this.retryOnConflict(async () => {
        const current = await this.jobs.get(merchantId, id);
        if (!current) return null;
        const next = change(current);
        if (!next) return current;
        return this.store.transaction((uow) => {
          const stored = uow.update<ImportJob>(IMPORT_JOBS, next.job);
          if (next.event) uow.publish(importEventMessage(next.event, stored));
          return stored;
        });
      }),
    );
  }

  /**
   * Outcomes of one job are recorded in batches: those that arrive while the job's previous write
   * holds the mutex join one batch, committed in one unit of work (one read of the job, one read
   * of the batch's items, one commit). With 8 bus partitions and the runner all counting the same
   * job, a commit per event would serialise every card behind one commit round trip.
   */
  recordOutcome(merchantId: string, jobId: string, businessKey: string, outcome: ImportOutcome, reason: string | null): Promise<ImportJob | null> {
    return new Promise((resolve, reject) => {
      const entry: PendingOutcome = { businessKey, outcome, reason, resolve, reject };
      const key = `${merchantId}/${jobId}`;
      const open = this.openBatches.get(key);
      if (open) {
        open.push(entry);
        return;
      }
      const batch = [entry];
      this.openBatches.set(key, batch);
      void this.mutex.run(jobId, async () => {
        // The batch closes when its turn comes: later outcomes start the next one.
        this.openBatches.delete(key);
        await this.recordBatch(merchantId, jobId, batch);
      });
    });
  }

  /** Records a batch and settles each of its callers: the job as stored, or null when already accounted for. */
  private async recordBatch(merchantId: string, jobId: string, batch: PendingOutcome[]): Promise<void> {
    try {
      const stored = await this.retryOnConflict(() => this.commitBatch(merchantId, jobId, batch));
      batch.forEach((entry, i) => entry.resolve(stored.recorded[i] ? stored.job : null));
    } catch (error) {
      if (error instanceof DuplicateKeyError && batch.length > 1) {
        // Another process accounted for one of them first: record them one by one.
        for (const entry of batch) await this.recordBatch(merchantId, jobId, [entry]);
        return;
      }
      // A single outcome another process recorded first counts as already accounted for.
      if (error instanceof DuplicateKeyError) batch.forEach((entry) => entry.resolve(null));
      else batch.forEach((entry) => entry.reject(error));
    }
  }

  private async commitBatch(merchantId: string, jobId: string, batch: PendingOutcome[]): Promise<{ job: ImportJob | null; recorded: boolean[] }> {
    const keys = [...new Set(batch.map((entry) => entry.businessKey))];
    // One equality lookup per key: the unique index answers each (an `in` query would be planned
    // as a scan of the merchant's items in id order once it has more than two values).
    const [job, ...existing] = await Promise.all([
      this.jobs.get(merchantId, jobId),
      ...keys.map((businessKey) => this.items.findOne(merchantId, { job_id: jobId, business_key: businessKey })),
    ]);
    const seen = new Set(existing.flatMap((item) => (item ? [item.business_key] : [])));
    // Once per job and business key, also within the batch.
    const recorded = batch.map((entry) => {
      if (!job || seen.has(entry.businessKey)) return false;
      seen.add(entry.businessKey);
      return true;
    });
    if (!job || !recorded.includes(true)) return { job, recorded };
    const now = this.clock.now().toISOString();
    const stored = await this.store.transaction((uow) => {
      let next = job;
      batch.forEach((entry, i) => {
        if (!recorded[i]) return;
        uow.insert<ImportItem>(IMPORT_ITEMS, { id: newId(), merchant_id: merchantId, job_id: jobId, business_key: entry.businessKey, outcome: entry.outcome, reason: entry.reason, recorded_at: now });
        next = withOutcome(next, entry.outcome, entry.reason);
      });
      return uow.update<ImportJob>(IMPORT_JOBS, next);
    });
    return { job: stored, recorded };
  }

  private async retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50, attempt * 2)));
      }
    }
  }
}

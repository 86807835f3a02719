import { newId, type Clock } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError, type DocumentStore, type Page, type PageRequest, type Where } from '@vaultline/store';
import { withOutcome, type ImportItem, type ImportJob, type ImportOutcome } from '../domain/import-job';
import type { ImportJobRepository, JobChange } from '../domain/ports';
import { importEventMessage } from './import-events.mapper';
import { KeyedMutex } from './keyed-mutex';

export const IMPORT_JOBS = 'import_jobs';
export const IMPORT_ITEMS = 'import_items';
const MAX_CONFLICT_RETRIES = 50;

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

  async recordOutcome(merchantId: string, jobId: string, businessKey: string, outcome: ImportOutcome, reason: string | null): Promise<ImportJob | null> {
    return this.mutex.run(jobId, () =>
      this.retryOnConflict(async () => {
        const [job, existing] = await Promise.all([this.jobs.get(merchantId, jobId), this.items.findOne(merchantId, { job_id: jobId, business_key: businessKey })]);
        if (!job || existing) return null;
        try {
          return await this.store.transaction((uow) => {
            uow.insert<ImportItem>(IMPORT_ITEMS, {
              id: newId(),
              merchant_id: merchantId,
              job_id: jobId,
              business_key: businessKey,
              outcome,
              reason,
              recorded_at: this.clock.now().toISOString(),
            });
            return uow.update<ImportJob>(IMPORT_JOBS, withOutcome(job, outcome, reason));
          });
        } catch (error) {
          // Another process accounted for this payment method first.
          if (error instanceof DuplicateKeyError) return null;
          throw error;
        }
      }),
    );
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

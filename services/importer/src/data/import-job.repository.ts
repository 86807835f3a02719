import type { Scope } from '@vaultline/core';
import { assignMissingModes, type CollectionSpec, type DocumentStore, type Page, type PageRequest, type UnitOfWork, type Where } from '@vaultline/store';
import type { ImportItem, ImportJob } from '../domain/import-job/import-job';
import type { ImportJobRepository } from '../domain/ports';

export const IMPORT_JOBS = 'import_jobs';
export const IMPORT_ITEMS = 'import_items';

export const importCollections: CollectionSpec[] = [
  { name: IMPORT_JOBS, indexes: [{ fields: ['state'] }] },
  { name: IMPORT_ITEMS, indexes: [{ fields: ['job_id', 'business_key'], unique: true }] },
];

export async function registerImportCollections(store: DocumentStore): Promise<void> {
  for (const spec of importCollections) await store.register(spec);
}

/**
 * Start-up migration (idempotent): jobs and items written before every resource had a mode become
 * test-mode ones (the mode of the key that created a job was not recorded). Returns how many got one.
 */
export async function assignTestModeToEarlierImports(store: DocumentStore): Promise<number> {
  return (await assignMissingModes(store, IMPORT_JOBS, () => 'test')) + (await assignMissingModes(store, IMPORT_ITEMS, () => 'test'));
}

/** Import jobs and their accounted payment methods over the DocumentStore port. */
export class StoreImportJobRepository implements ImportJobRepository {
  constructor(private readonly store: DocumentStore) {}

  private get jobs() {
    return this.store.collection<ImportJob>(IMPORT_JOBS);
  }

  private get items() {
    return this.store.collection<ImportItem>(IMPORT_ITEMS);
  }

  get(scope: Scope, id: string): Promise<ImportJob | null> {
    return this.jobs.get(scope, id);
  }

  list(scope: Scope, page: PageRequest): Promise<Page<ImportJob>> {
    return this.jobs.list(scope, {}, page);
  }

  listAcrossMerchants(where: { states: ImportJob['state'][]; keyNotRevoked?: boolean }, page: PageRequest): Promise<Page<ImportJob>> {
    const filter: Where = { state: { in: where.states } };
    if (where.keyNotRevoked) {
      filter.import_key_revoked = false;
      filter.import_key_id = { ne: null };
    }
    return this.jobs.listAcrossMerchants(filter, page);
  }

  async accountedKeys(scope: Scope, jobId: string, businessKeys: readonly string[]): Promise<Set<string>> {
    // One equality lookup per key: the unique index answers each (an `in` query would be planned
    // as a scan of the merchant's items in id order once it has more than two values).
    const found = await Promise.all(businessKeys.map((businessKey) => this.items.findOne(scope, { job_id: jobId, business_key: businessKey })));
    return new Set(found.flatMap((item) => (item ? [item.business_key] : [])));
  }

  insert(uow: UnitOfWork, job: Omit<ImportJob, 'version'>): ImportJob {
    return uow.insert<ImportJob>(IMPORT_JOBS, job);
  }

  update(uow: UnitOfWork, job: ImportJob): ImportJob {
    return uow.update<ImportJob>(IMPORT_JOBS, job);
  }

  insertItem(uow: UnitOfWork, item: Omit<ImportItem, 'version'>): ImportItem {
    return uow.insert<ImportItem>(IMPORT_ITEMS, item);
  }
}

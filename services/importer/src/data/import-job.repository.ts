import type { CollectionSpec, DocumentStore, Page, PageRequest, UnitOfWork, Where } from '@vaultline/store';
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

/** Import jobs and their accounted payment methods over the DocumentStore port. */
export class StoreImportJobRepository implements ImportJobRepository {
  constructor(private readonly store: DocumentStore) {}

  private get jobs() {
    return this.store.collection<ImportJob>(IMPORT_JOBS);
  }

  private get items() {
    return this.store.collection<ImportItem>(IMPORT_ITEMS);
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

  async accountedKeys(merchantId: string, jobId: string, businessKeys: readonly string[]): Promise<Set<string>> {
    // One equality lookup per key: the unique index answers each (an `in` query would be planned
    // as a scan of the merchant's items in id order once it has more than two values).
    const found = await Promise.all(businessKeys.map((businessKey) => this.items.findOne(merchantId, { job_id: jobId, business_key: businessKey })));
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

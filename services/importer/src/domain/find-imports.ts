import { isUuid, NotFoundError } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import type { ImportJob } from './import-job/import-job';
import type { ImportJobRepository } from './ports';

/** GET /tokens/imports: the merchant's import jobs. */
export type ListImports = (merchantId: string, page: PageRequest) => Promise<Page<ImportJob>>;

export function listImports({ jobs }: { jobs: Pick<ImportJobRepository, 'list'> }): ListImports {
  return (merchantId, page) => jobs.list(merchantId, page);
}

/** GET /tokens/imports/{id}: one of the merchant's import jobs; another merchant's is not found. */
export type GetImport = (merchantId: string, id: string) => Promise<ImportJob>;

export function getImport({ jobs }: { jobs: Pick<ImportJobRepository, 'get'> }): GetImport {
  return async (merchantId, id) => {
    const job = isUuid(id) ? await jobs.get(merchantId, id) : null;
    if (!job) throw new NotFoundError('import');
    return job;
  };
}

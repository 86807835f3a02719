import { isUuid, NotFoundError, type Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import type { ImportJob } from './import-job/import-job';
import type { ImportJobRepository } from './ports';

/** GET /tokens/imports: the merchant's import jobs of the key's mode. */
export type ListImports = (scope: Scope, page: PageRequest) => Promise<Page<ImportJob>>;

export function listImports({ jobs }: { jobs: Pick<ImportJobRepository, 'list'> }): ListImports {
  return (scope, page) => jobs.list(scope, page);
}

/** GET /tokens/imports/{id}: one of the merchant's import jobs; another merchant's or the other mode's is not found. */
export type GetImport = (scope: Scope, id: string) => Promise<ImportJob>;

export function getImport({ jobs }: { jobs: Pick<ImportJobRepository, 'get'> }): GetImport {
  return async (scope, id) => {
    const job = isUuid(id) ? await jobs.get(scope, id) : null;
    if (!job) throw new NotFoundError('import');
    return job;
  };
}

import type { Router } from 'express';
import { z } from 'zod';
import { NotFoundError, isUuid } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { authOf, listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import { createImport, type CreateImportDeps } from '../domain/create-import';
import type { ImportJobRepository } from '../domain/ports';
import { importJobView } from './import-job.view';

const createImportBody = z
  .object({
    provider: z.string().trim().min(1).max(64),
  })
  .loose();

export interface ImportRoutesDeps extends CreateImportDeps {
  jobs: ImportJobRepository;
}

/** /tokens/imports: automatic import jobs of the calling merchant. */
export function importRoutes(router: Router, deps: ImportRoutesDeps): void {
  router.post('/tokens/imports', requireScope(SCOPES.merchant), async (req, res) => {
    const { merchantId } = authOf(req);
    const body = parseInput(createImportBody, req.body);
    const job = await createImport(deps, { merchantId, provider: body.provider, credentials: body[body.provider] });
    res.status(201).json(importJobView(job));
  });

  router.get('/tokens/imports', requireScope(SCOPES.merchant), async (req, res) => {
    const { merchantId } = authOf(req);
    const page = await deps.jobs.list(merchantId, parsePageQuery(req.query));
    res.json(listResponse(page, importJobView));
  });

  router.get('/tokens/imports/:id', requireScope(SCOPES.merchant), async (req, res) => {
    const { merchantId } = authOf(req);
    const id = String(req.params.id);
    const job = isUuid(id) ? await deps.jobs.get(merchantId, id) : null;
    if (!job) throw new NotFoundError('import');
    res.json(importJobView(job));
  });
}

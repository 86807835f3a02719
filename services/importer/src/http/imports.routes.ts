import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { answers, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type { CreateImport } from '../domain/create-import';
import type { GetImport, ListImports } from '../domain/find-imports';
import { toImportJobView } from './import-job.view';

const createImportBody = z
  .object({
    provider: z.string().trim().min(1).max(64),
  })
  .loose();

export interface ImportUseCases {
  createImport: CreateImport;
  listImports: ListImports;
  getImport: GetImport;
}

/** /tokens/imports: automatic import jobs of the calling merchant, in its key's mode. */
export function importRoutes(router: Router, { createImport, listImports, getImport }: ImportUseCases): void {
  router.post(
    '/tokens/imports',
    requireScope(SCOPES.merchant),
    answers(async (req) => {
      const scope = scopeOfRequest(req);
      const body = parseInput(createImportBody, req.body);
      const job = await createImport({ scope, provider: body.provider, credentials: body[body.provider] });
      return reply(201, toImportJobView(job));
    }),
  );

  router.get('/tokens/imports', requireScope(SCOPES.merchant), async (req, res) => {
    const page = await listImports(scopeOfRequest(req), parsePageQuery(req.query));
    res.json(listResponse(page, toImportJobView));
  });

  router.get('/tokens/imports/:id', requireScope(SCOPES.merchant), async (req, res) => {
    res.json(toImportJobView(await getImport(scopeOfRequest(req), String(req.params.id))));
  });
}

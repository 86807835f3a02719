import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import { toAuditView } from '../domain/audit/detokenize-audit';
import { getKeyRotation, startKeyRotation, toRotationView } from '../domain/keys/key-rotation';
import type { VaultDeps } from '../domain/ports';

const rotationBody = z.object({ to_version: z.number().int().min(1).max(1_000_000) });
const rotationId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The rotation id must be a UUID.' });
const auditQuery = z.object({ token_id: z.string().min(1).max(64).optional(), caller: z.string().min(1).max(64).optional() });

/** Admin routes: /admin/vault/<rest> at the gateway arrives here as /admin/<rest>. */
export function adminRoutes(router: Router, deps: VaultDeps, onRotationStarted: () => void): void {
  router.post('/admin/key-rotations', requireScope(SCOPES.admin), async (req, res) => {
    const { to_version } = parseInput(rotationBody, req.body);
    const rotation = await startKeyRotation(deps, to_version);
    onRotationStarted();
    res.status(202).json(toRotationView(rotation, rotation.total));
  });

  router.get('/admin/key-rotations/:id', requireScope(SCOPES.admin), async (req, res) => {
    res.json(await getKeyRotation(deps, parseInput(rotationId, req.params.id)));
  });

  router.get('/admin/detokenize-audit', requireScope(SCOPES.admin), async (req, res) => {
    const page = parsePageQuery(req.query);
    const filter = parseInput(auditQuery, { token_id: req.query.token_id, caller: req.query.caller });
    const result = await deps.audit.list({ tokenId: filter.token_id, caller: filter.caller }, page);
    res.json(listResponse(result, toAuditView));
  });
}

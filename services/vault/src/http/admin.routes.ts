import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import type { ListDetokenizeAudit } from '../domain/audit/list-detokenize-audit';
import type { GetKeyRotation, GetKeyStatus, ListKeyRotations, StartKeyRotation } from '../domain/keys/key-rotation';
import { toDetokenizeAuditView } from './detokenize-audit.view';
import { toKeyRotationView } from './key-rotation.view';

const rotationBody = z.object({ to_version: z.number().int().min(1).max(1_000_000) });
const rotationId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The rotation id must be a UUID.' });
const auditQuery = z.object({ token_id: z.string().min(1).max(64).optional(), caller: z.string().min(1).max(64).optional() });

export interface AdminUseCases {
  startKeyRotation: StartKeyRotation;
  getKeyRotation: GetKeyRotation;
  listKeyRotations: ListKeyRotations;
  getKeyStatus: GetKeyStatus;
  listDetokenizeAudit: ListDetokenizeAudit;
  /** Wakes the rotation worker once a rotation was started. */
  onRotationStarted: () => void;
}

/** Admin routes: /admin/vault/<rest> at the gateway arrives here as /admin/<rest>. */
export function adminRoutes(router: Router, useCases: AdminUseCases): void {
  router.post('/admin/key-rotations', requireScope(SCOPES.admin), async (req, res) => {
    const { to_version } = parseInput(rotationBody, req.body);
    const rotation = await useCases.startKeyRotation(to_version);
    useCases.onRotationStarted();
    res.status(202).json(toKeyRotationView(rotation, rotation.total));
  });

  router.get('/admin/key-rotations', requireScope(SCOPES.admin), async (req, res) => {
    const page = await useCases.listKeyRotations(parsePageQuery(req.query));
    res.json(listResponse(page, ({ rotation, remaining }) => toKeyRotationView(rotation, remaining)));
  });

  router.get('/admin/key-status', requireScope(SCOPES.admin), (_req, res) => {
    res.json({ object: 'key_status', ...useCases.getKeyStatus() });
  });

  router.get('/admin/key-rotations/:id', requireScope(SCOPES.admin), async (req, res) => {
    const { rotation, remaining } = await useCases.getKeyRotation(parseInput(rotationId, req.params.id));
    res.json(toKeyRotationView(rotation, remaining));
  });

  router.get('/admin/detokenize-audit', requireScope(SCOPES.admin), async (req, res) => {
    const page = parsePageQuery(req.query);
    const filter = parseInput(auditQuery, { token_id: req.query.token_id, caller: req.query.caller });
    const result = await useCases.listDetokenizeAudit({ tokenId: filter.token_id, caller: filter.caller }, page);
    res.json(listResponse(result, toDetokenizeAuditView));
  });
}

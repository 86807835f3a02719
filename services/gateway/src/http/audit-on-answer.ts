import type { Request, Response } from 'express';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import { auditedPath, idsInPath, type AdminAudit } from '../domain/admin-audit';
import type { AuditActor } from '../domain/admin-audit-entry';
import type { RefusedAdminRequest } from '../domain/admin-refusals';
import { clientAddressOf } from './client-address';

/**
 * Appends the request to the audit log once it is answered: `actor` is read then (the credential is
 * known only after authentication), the status too ('close' also fires when the client went away
 * first: recorded as 499). The path without its query, cut to its first 300 characters before anything
 * reads it (auditedPath); the ids it names, then the one it created (`res.locals.createdId`); the
 * client's address. An actor of null: nothing is written. With `refused`, a request whose actor names
 * nobody (no operator, no session: the key was missing or wrong) goes there instead of a row of its own.
 */
export function auditOnceAnswered(
  req: Request,
  res: Response,
  deps: { audit: AdminAudit; logger: Logger; refused?: (request: RefusedAdminRequest) => void },
  actor: () => AuditActor | null,
): void {
  const path = auditedPath(req.originalUrl);
  res.once('close', () => {
    const who = actor();
    if (who === null) return;
    const status = res.writableFinished ? res.statusCode : 499;
    const address = clientAddressOf(req);
    if (deps.refused && who.operator_id === null && who.via === 'admin_key') {
      deps.refused({ address, method: req.method, path, status, requestId: requestIdOf(req) });
      return;
    }
    const created = typeof res.locals.createdId === 'string' ? [res.locals.createdId] : [];
    const action = {
      ...who,
      method: req.method,
      path,
      target_ids: [...idsInPath(path), ...created],
      status,
      request_id: requestIdOf(req),
      client_address: address,
      count: 1,
    };
    deps.audit.record(action).catch((error: unknown) => deps.logger.error({ err: error, ...action }, 'audit entry not written'));
  });
}

import type { Request, Response } from 'express';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import { idsInPath, type AdminAudit } from '../domain/admin-audit';
import type { AuditActor } from '../domain/admin-audit-entry';

/**
 * Appends the request to the audit log once it is answered: `actor` is read then (the credential is
 * known only after authentication), the status too ('close' also fires when the client went away
 * first: recorded as 499). The path without its query; the ids it names, then the one it created
 * (`res.locals.createdId`).
 */
export function auditOnceAnswered(req: Request, res: Response, deps: { audit: AdminAudit; logger: Logger }, actor: () => AuditActor | null): void {
  const path = req.originalUrl.split('?')[0] ?? '';
  res.once('close', () => {
    const who = actor();
    if (who === null) return;
    const created = typeof res.locals.createdId === 'string' ? [res.locals.createdId] : [];
    const action = {
      ...who,
      method: req.method,
      path: path.length > 500 ? `${path.slice(0, 500)}…` : path,
      target_ids: [...idsInPath(path), ...created],
      status: res.writableFinished ? res.statusCode : 499,
      request_id: requestIdOf(req),
    };
    deps.audit.record(action).catch((error: unknown) => deps.logger.error({ err: error, ...action }, 'audit entry not written'));
  });
}

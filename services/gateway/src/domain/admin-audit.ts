import { newId, type Clock } from '@vaultline/core';
import type { AdminAuditRepository, PageOf, PageRequest } from './ports';

/**
 * One admin request: who (the operator, null when the key was refused), what (method, path and the
 * ids it names or created), when, and the outcome (HTTP status). Never a request body: an admin body
 * can carry a merchant's name or a forwarding credential, and the log is kept for a long time.
 */
export interface AdminAuditEntry {
  id: string;
  at: string;
  operator_id: string | null;
  operator_name: string | null;
  method: string;
  path: string;
  target_ids: string[];
  status: number;
  request_id: string;
}

export type AdminAction = Omit<AdminAuditEntry, 'id' | 'at'>;

export type RecordAdminAction = (action: AdminAction) => Promise<void>;

/** Appends: entries are never changed or deleted (the repository offers no way to). */
export function recordAdminAction({ audit, clock }: { audit: Pick<AdminAuditRepository, 'append'>; clock: Clock }): RecordAdminAction {
  return (action) => audit.append({ id: newId(), at: clock.now().toISOString(), ...action });
}

export interface AdminAuditFilter {
  operatorId?: string;
}

export type ListAdminAudit = (filter: AdminAuditFilter, page: PageRequest) => Promise<PageOf<AdminAuditEntry>>;

export const listAdminAudit =
  ({ audit }: { audit: Pick<AdminAuditRepository, 'list'> }): ListAdminAudit =>
  (filter, page) =>
    audit.list(filter, page);

/** The ids an admin path names (merchants, keys, operators …), in the order they appear. */
export function idsInPath(path: string): string[] {
  return path.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [];
}

export interface AdminAudit {
  record: RecordAdminAction;
  list: ListAdminAudit;
}

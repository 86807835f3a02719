import { newId, type Clock } from '@vaultline/core';
import type { AdminAuditRepository, PageOf, PageRequest } from './ports';
import type { AdminAction, AdminAuditEntry, AdminAuditFilter } from './admin-audit-entry';

export type RecordAdminAction = (action: AdminAction) => Promise<void>;

/** Appends: entries are never changed or deleted (the repository offers no way to). */
export function recordAdminAction({ audit, clock }: { audit: Pick<AdminAuditRepository, 'append'>; clock: Clock }): RecordAdminAction {
  return (action) => audit.append({ id: newId(), at: clock.now().toISOString(), ...action });
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

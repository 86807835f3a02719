import { newId, type Clock } from '@vaultline/core';
import type { AdminAuditRepository, PageOf, PageRequest } from './ports';
import type { AdminAction, AdminAuditEntry, AdminAuditFilter } from './admin-audit-entry';

/** Appends an entry (at `at`, by default now). */
export type RecordAdminAction = (action: AdminAction, at?: Date) => Promise<void>;

/** Appends: entries are never changed (the repository offers no way to); only the retention deletes them. */
export function recordAdminAction({ audit, clock }: { audit: Pick<AdminAuditRepository, 'append'>; clock: Clock }): RecordAdminAction {
  return (action, at) => audit.append({ id: newId(), at: (at ?? clock.now()).toISOString(), client_address: null, count: 1, ...action });
}

/** Deletes the entries older than the retention; returns how many. */
export type PruneAdminAudit = () => Promise<number>;

/** Entries deleted per unit of work: a prune after a long pause does not hold the store for one huge commit. */
export const AUDIT_PRUNE_BATCH = 500;

/** AUDIT_RETENTION_DAYS: entries whose `at` is older go, in batches, oldest first. */
export function pruneAdminAudit({
  audit,
  clock,
  retentionDays,
}: {
  audit: Pick<AdminAuditRepository, 'deleteBefore'>;
  clock: Clock;
  retentionDays: number;
}): PruneAdminAudit {
  return async () => {
    const before = new Date(clock.now().getTime() - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const batch = await audit.deleteBefore(before, AUDIT_PRUNE_BATCH);
      deleted += batch;
      if (batch < AUDIT_PRUNE_BATCH) return deleted;
    }
  };
}

export type ListAdminAudit = (filter: AdminAuditFilter, page: PageRequest) => Promise<PageOf<AdminAuditEntry>>;

export const listAdminAudit =
  ({ audit }: { audit: Pick<AdminAuditRepository, 'list'> }): ListAdminAudit =>
  (filter, page) =>
    audit.list(filter, page);

/** The longest path an entry keeps; a longer one is cut (with …) before anything reads it. */
export const AUDITED_PATH_LENGTH = 300;
/** The most ids an entry names from its path (an admin path names at most three). */
export const AUDITED_PATH_IDS = 5;

/**
 * The path of a request URL as an entry keeps it: cut to AUDITED_PATH_LENGTH before it is split from its
 * query or searched for ids, so a 15,000-character URL costs no more than a short one and gives a bounded
 * entry.
 */
export function auditedPath(url: string): string {
  const head = url.slice(0, AUDITED_PATH_LENGTH + 1);
  const query = head.indexOf('?');
  if (query !== -1) return head.slice(0, query);
  return head.length > AUDITED_PATH_LENGTH ? `${head.slice(0, AUDITED_PATH_LENGTH)}…` : head;
}

/** The ids an admin path names (merchants, keys, operators …), in the order they appear, at most AUDITED_PATH_IDS. */
export function idsInPath(path: string): string[] {
  return (path.slice(0, AUDITED_PATH_LENGTH).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? []).slice(0, AUDITED_PATH_IDS);
}

export interface AdminAudit {
  record: RecordAdminAction;
  list: ListAdminAudit;
}

import { firstIdAt } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { AdminAuditEntry, AdminAuditFilter } from '../domain/admin-audit-entry';
import type { AdminAuditRepository, PageOf, PageRequest } from '../domain/ports';
import { ADMIN_AUDIT } from './collections';

/**
 * An entry as stored: a system record (`merchant_id` and `mode` are the store's scope fields), so the
 * merchant and mode a session acted in are kept as `subject_merchant_id` and `subject_mode`. Entries
 * written before dashboard sessions have neither them nor `via`: they were admin-key requests; entries
 * written before addresses were kept have no `client_address` and stand for one request.
 */
type AdminAuditDocument = StoredDocument &
  Omit<AdminAuditEntry, 'merchant_id' | 'mode' | 'via' | 'session_id_prefix' | 'key_id' | 'role' | 'client_address' | 'count'> &
  Partial<Pick<AdminAuditEntry, 'via' | 'session_id_prefix' | 'key_id' | 'role' | 'client_address' | 'count'>> & {
    subject_merchant_id?: string | null;
    subject_mode?: AdminAuditEntry['mode'];
  };

const toEntry = ({
  version: _version,
  merchant_id: _scope,
  mode: _storeMode,
  subject_merchant_id,
  subject_mode,
  via,
  session_id_prefix,
  key_id,
  role,
  client_address,
  count,
  ...entry
}: AdminAuditDocument): AdminAuditEntry => ({
  ...entry,
  merchant_id: subject_merchant_id ?? null,
  mode: subject_mode ?? null,
  via: via ?? 'admin_key',
  session_id_prefix: session_id_prefix ?? null,
  key_id: key_id ?? null,
  role: role ?? null,
  client_address: client_address ?? null,
  count: count ?? 1,
});

const toDocument = ({ merchant_id, mode, ...entry }: AdminAuditEntry): Omit<AdminAuditDocument, 'version'> => ({
  ...entry,
  merchant_id: SYSTEM_SCOPE,
  subject_merchant_id: merchant_id,
  subject_mode: mode,
});

function whereOf(filter: AdminAuditFilter): Record<string, string> {
  const where: Record<string, string> = {};
  if (filter.operatorId) where.operator_id = filter.operatorId;
  if (filter.merchantId) where.subject_merchant_id = filter.merchantId;
  if (filter.via) where.via = filter.via;
  if (filter.sessionIdPrefix) where.session_id_prefix = filter.sessionIdPrefix;
  if (filter.keyId) where.key_id = filter.keyId;
  if (filter.role) where.role = filter.role;
  return where;
}

/** Inserts and reads; nothing in the gateway changes an entry, and only the retention (deleteBefore) removes one. */
export class StoreAdminAuditRepository implements AdminAuditRepository {
  constructor(private readonly store: DocumentStore) {}

  async append(entry: AdminAuditEntry): Promise<void> {
    await this.store.transaction((uow) => uow.insert<AdminAuditDocument>(ADMIN_AUDIT, toDocument(entry)));
  }

  async list(filter: AdminAuditFilter, page: PageRequest): Promise<PageOf<AdminAuditEntry>> {
    const result = await this.store.collection<AdminAuditDocument>(ADMIN_AUDIT).list(SYSTEM_SCOPE, whereOf(filter), page);
    return { ...result, items: result.items.map(toEntry) };
  }

  /**
   * Ids are UUIDv7 minted when the entry was written: the entries written before `before` are those whose id
   * sorts below the first id of that millisecond, read on the id index (a page cursor) without scanning the
   * entries kept. A gathered entry is written up to a minute after its `at`, and goes that much later.
   */
  async deleteBefore(before: string, limit: number): Promise<number> {
    const page = await this.store
      .collection<AdminAuditDocument>(ADMIN_AUDIT)
      .list(SYSTEM_SCOPE, {}, { limit, order: 'desc', after: firstIdAt(new Date(before)) });
    if (page.items.length === 0) return 0;
    await this.store.transaction((uow) => {
      for (const entry of page.items) uow.delete(ADMIN_AUDIT, SYSTEM_SCOPE, entry.id);
    });
    return page.items.length;
  }
}

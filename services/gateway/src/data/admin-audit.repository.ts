import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { AdminAuditEntry, AdminAuditFilter } from '../domain/admin-audit-entry';
import type { AdminAuditRepository, PageOf, PageRequest } from '../domain/ports';
import { ADMIN_AUDIT } from './collections';

/**
 * An entry as stored: a system record (`merchant_id` and `mode` are the store's scope fields), so the
 * merchant and mode a session acted in are kept as `subject_merchant_id` and `subject_mode`. Entries
 * written before dashboard sessions have neither them nor `via`: they were admin-key requests.
 */
type AdminAuditDocument = StoredDocument &
  Omit<AdminAuditEntry, 'merchant_id' | 'mode' | 'via' | 'session_id_prefix' | 'key_id' | 'role'> &
  Partial<Pick<AdminAuditEntry, 'via' | 'session_id_prefix' | 'key_id' | 'role'>> & {
    subject_merchant_id?: string | null;
    subject_mode?: AdminAuditEntry['mode'];
  };

const toEntry = ({ version: _version, merchant_id: _scope, mode: _storeMode, subject_merchant_id, subject_mode, via, session_id_prefix, key_id, role, ...entry }: AdminAuditDocument): AdminAuditEntry => ({
  ...entry,
  merchant_id: subject_merchant_id ?? null,
  mode: subject_mode ?? null,
  via: via ?? 'admin_key',
  session_id_prefix: session_id_prefix ?? null,
  key_id: key_id ?? null,
  role: role ?? null,
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

/** Inserts and reads only: nothing in the gateway can change or remove an entry. */
export class StoreAdminAuditRepository implements AdminAuditRepository {
  constructor(private readonly store: DocumentStore) {}

  async append(entry: AdminAuditEntry): Promise<void> {
    await this.store.transaction((uow) => uow.insert<AdminAuditDocument>(ADMIN_AUDIT, toDocument(entry)));
  }

  async list(filter: AdminAuditFilter, page: PageRequest): Promise<PageOf<AdminAuditEntry>> {
    const result = await this.store.collection<AdminAuditDocument>(ADMIN_AUDIT).list(SYSTEM_SCOPE, whereOf(filter), page);
    return { ...result, items: result.items.map(toEntry) };
  }
}

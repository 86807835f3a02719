import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { AdminAuditEntry, AdminAuditFilter } from '../domain/admin-audit-entry';
import type { AdminAuditRepository, PageOf, PageRequest } from '../domain/ports';
import { ADMIN_AUDIT } from './collections';

type AdminAuditDocument = StoredDocument & AdminAuditEntry;

const toEntry = ({ version: _version, merchant_id: _scope, ...entry }: AdminAuditDocument): AdminAuditEntry => entry;

/** Inserts and reads only: nothing in the gateway can change or remove an entry. */
export class StoreAdminAuditRepository implements AdminAuditRepository {
  constructor(private readonly store: DocumentStore) {}

  async append(entry: AdminAuditEntry): Promise<void> {
    await this.store.transaction((uow) => uow.insert<AdminAuditDocument>(ADMIN_AUDIT, { ...entry, merchant_id: SYSTEM_SCOPE }));
  }

  async list(filter: AdminAuditFilter, page: PageRequest): Promise<PageOf<AdminAuditEntry>> {
    const where: Record<string, string> = filter.operatorId ? { operator_id: filter.operatorId } : {};
    const result = await this.store.collection<AdminAuditDocument>(ADMIN_AUDIT).list(SYSTEM_SCOPE, where, page);
    return { ...result, items: result.items.map(toEntry) };
  }
}

import { SYSTEM_SCOPE, type DocumentStore, type Page, type PageRequest, type UnitOfWork, type Where } from '@vaultline/store';
import type { DetokenizeAuditRecord } from '../domain/audit/detokenize-audit';
import type { AuditRepository } from '../domain/ports';
import { COLLECTIONS } from './collections';

export class StoreAuditRepository implements AuditRepository {
  constructor(private readonly store: DocumentStore) {}

  insert(uow: UnitOfWork, record: Omit<DetokenizeAuditRecord, 'version'>): void {
    uow.insert<DetokenizeAuditRecord>(COLLECTIONS.detokenizeAudit, record);
  }

  list(filter: { tokenId?: string; caller?: string }, page: PageRequest): Promise<Page<DetokenizeAuditRecord>> {
    const where: Where = {};
    if (filter.tokenId !== undefined) where.token_id = filter.tokenId;
    if (filter.caller !== undefined) where.caller = filter.caller;
    return this.store.collection<DetokenizeAuditRecord>(COLLECTIONS.detokenizeAudit).list(SYSTEM_SCOPE, where, page);
  }
}

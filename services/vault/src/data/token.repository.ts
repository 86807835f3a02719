import { newId, type Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, ScopedDocument, UnitOfWork, Where } from '@vaultline/store';
import type { TokenRepository } from '../domain/ports';
import type { TokenRecord } from '../domain/tokens/token';
import { COLLECTIONS } from './collections';

interface BusinessKeyClaim extends ScopedDocument {
  business_key: string;
  token_id: string;
}

export class StoreTokenRepository implements TokenRepository {
  constructor(private readonly store: DocumentStore) {}

  private get tokens() {
    return this.store.collection<TokenRecord>(COLLECTIONS.tokens);
  }

  get(scope: Scope, id: string): Promise<TokenRecord | null> {
    return this.tokens.get(scope, id);
  }

  async findByBusinessKey(scope: Scope, businessKey: string): Promise<TokenRecord | null> {
    const claim = await this.store.collection<BusinessKeyClaim>(COLLECTIONS.businessKeys).findOne(scope, { business_key: businessKey });
    return claim ? this.tokens.get(scope, claim.token_id) : null;
  }

  list(scope: Scope, filter: { businessKey?: string; fingerprint?: string }, page: PageRequest): Promise<Page<TokenRecord>> {
    const where: Where = { status: 'active' };
    if (filter.businessKey !== undefined) where.business_key = filter.businessKey;
    if (filter.fingerprint !== undefined) where.fingerprint = filter.fingerprint;
    return this.tokens.list(scope, where, page);
  }

  listNotWrappedBy(version: number, page: PageRequest): Promise<Page<TokenRecord>> {
    return this.tokens.listAcrossMerchants({ status: 'active', kek_version: { ne: version } }, page);
  }

  async countNotWrappedBy(version: number): Promise<number> {
    // count() is per merchant; the rotation needs every merchant, so it pages across them.
    let total = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.listNotWrappedBy(version, { limit: 500, after });
      total += page.items.length;
      if (!page.has_more || !page.next_cursor) return total;
      after = page.next_cursor;
    }
  }

  insert(uow: UnitOfWork, record: Omit<TokenRecord, 'version'>): TokenRecord {
    return uow.insert<TokenRecord>(COLLECTIONS.tokens, record);
  }

  update(uow: UnitOfWork, record: TokenRecord): TokenRecord {
    return uow.update<TokenRecord>(COLLECTIONS.tokens, record);
  }

  claimBusinessKey(uow: UnitOfWork, scope: Scope, businessKey: string, tokenId: string): void {
    uow.insert<BusinessKeyClaim>(COLLECTIONS.businessKeys, {
      id: newId(),
      merchant_id: scope.merchantId,
      mode: scope.mode,
      business_key: businessKey,
      token_id: tokenId,
    });
  }
}

import { type Scope, scopeOfDocument } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Clock } from '@vaultline/core';
import type { ProcessorAccountRepository } from '../domain/processor-accounts/processor-account-ports';
import type { ProcessorAccount } from '../domain/processor-accounts/processor-account';
import { PerMerchantCache, type PerMerchantCacheOptions } from './per-merchant-cache';

/**
 * A merchant's processor accounts, listed from memory for a short time (PerMerchantCache): every step of
 * every payment finds the account it uses in this list (twice per payment of an automatic flow), and
 * accounts change rarely. Single reads go to the store.
 */
export class CachedProcessorAccountRepository implements ProcessorAccountRepository {
  private readonly cache: PerMerchantCache<{ limit: number; accounts: ProcessorAccount[] }>;

  constructor(
    private readonly inner: ProcessorAccountRepository,
    clock: Clock,
    options: PerMerchantCacheOptions,
  ) {
    this.cache = new PerMerchantCache(clock, options);
  }

  get(scope: Scope, id: string): Promise<ProcessorAccount | null> {
    return this.inner.get(scope, id);
  }

  getGlobal(id: string): Promise<ProcessorAccount | null> {
    return this.inner.getGlobal(id);
  }

  async list(scope: Scope, limit: number): Promise<ProcessorAccount[]> {
    const load = async () => ({ limit, accounts: await this.inner.list(scope, limit) });
    const listed = await this.cache.get(scope, load);
    return listed.limit === limit ? listed.accounts : (await load()).accounts;
  }

  insert(uow: UnitOfWork, account: Omit<ProcessorAccount, 'version'>): ProcessorAccount {
    this.cache.invalidateWith(uow, scopeOfDocument(account));
    return this.inner.insert(uow, account);
  }

  update(uow: UnitOfWork, account: ProcessorAccount): ProcessorAccount {
    this.cache.invalidateWith(uow, scopeOfDocument(account));
    return this.inner.update(uow, account);
  }

  delete(uow: UnitOfWork, account: ProcessorAccount): void {
    this.cache.invalidateWith(uow, scopeOfDocument(account));
    this.inner.delete(uow, account);
  }
}

import type { Scope } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { CheckoutBrandingRecord } from '../domain/branding/checkout-branding';
import type { CheckoutBrandingRepository } from '../domain/ports';
import { COLLECTIONS } from './collections';

export class StoreCheckoutBrandingRepository implements CheckoutBrandingRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Pick<Scope, 'merchantId'>): Promise<CheckoutBrandingRecord | null> {
    return this.store.collection<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding).get(scope.merchantId, scope.merchantId);
  }

  insert(uow: UnitOfWork, record: Omit<CheckoutBrandingRecord, 'version'>): CheckoutBrandingRecord {
    return uow.insert<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding, record);
  }

  update(uow: UnitOfWork, record: CheckoutBrandingRecord): CheckoutBrandingRecord {
    return uow.update<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding, record);
  }
}

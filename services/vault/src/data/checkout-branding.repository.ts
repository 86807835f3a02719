import type { Mode, Scope } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { CheckoutBrandingRecord } from '../domain/branding/checkout-branding';
import type { CheckoutBrandingRepository } from '../domain/ports';
import { COLLECTIONS } from './collections';

/**
 * A merchant's hosted-page look, one record per merchant: test and live pages look the same (a consumer
 * must recognise the shop it tried in test), so the record is kept in the merchant's test partition.
 */
const PARTITION_MODE: Mode = 'test';

export class StoreCheckoutBrandingRepository implements CheckoutBrandingRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Pick<Scope, 'merchantId'>): Promise<CheckoutBrandingRecord | null> {
    return this.store
      .collection<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding)
      .get({ merchantId: scope.merchantId, mode: PARTITION_MODE }, scope.merchantId);
  }

  insert(uow: UnitOfWork, record: Omit<CheckoutBrandingRecord, 'version'>): CheckoutBrandingRecord {
    return uow.insert<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding, { ...record, mode: PARTITION_MODE });
  }

  update(uow: UnitOfWork, record: CheckoutBrandingRecord): CheckoutBrandingRecord {
    return uow.update<CheckoutBrandingRecord>(COLLECTIONS.checkoutBranding, { ...record, mode: PARTITION_MODE });
  }
}

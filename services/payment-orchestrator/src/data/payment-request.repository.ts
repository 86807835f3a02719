import { scopeOfDocument, type Scope } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { PaymentRequest, PaymentRequestRepository } from '../domain/payment/payment-requests';
import { PAYMENT_REQUESTS } from './collections';

export class StorePaymentRequestRepository implements PaymentRequestRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Scope, id: string): Promise<PaymentRequest | null> {
    return this.store.collection<PaymentRequest>(PAYMENT_REQUESTS).get(scope, id);
  }

  insert(uow: UnitOfWork, request: Omit<PaymentRequest, 'version'>): PaymentRequest {
    return uow.insert<PaymentRequest>(PAYMENT_REQUESTS, request);
  }

  delete(uow: UnitOfWork, request: PaymentRequest): void {
    uow.delete(PAYMENT_REQUESTS, scopeOfDocument(request), request.id, request.version);
  }

  async listCreatedBy(createdBy: string, limit: number): Promise<PaymentRequest[]> {
    return (await this.store.collection<PaymentRequest>(PAYMENT_REQUESTS).listAcrossMerchants({ created_at: { lte: createdBy } }, { limit })).items;
  }
}

import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { PaymentRepository } from '../domain/ports';
import type { Payment } from '../domain/payment/payment';
import { PAYMENTS } from './collections';

export class StorePaymentRepository implements PaymentRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<Payment>(PAYMENTS);
  }

  get(merchantId: string, id: string): Promise<Payment | null> {
    return this.collection.get(merchantId, id);
  }

  list(merchantId: string, page: PageRequest): Promise<Page<Payment>> {
    return this.collection.list(merchantId, {}, page);
  }

  async listDue(now: Date, limit: number): Promise<Payment[]> {
    return (await this.collection.listAcrossMerchants({ next_run_at: { lte: now.toISOString() } }, { limit })).items;
  }

  insert(uow: UnitOfWork, payment: Omit<Payment, 'version'>): Payment {
    return uow.insert<Payment>(PAYMENTS, payment);
  }

  update(uow: UnitOfWork, payment: Payment): Payment {
    return uow.update<Payment>(PAYMENTS, payment);
  }
}

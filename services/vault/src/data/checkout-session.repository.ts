import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { CheckoutSessionRecord } from '../domain/checkout/checkout-session';
import type { CheckoutSessionRepository } from '../domain/ports';
import { COLLECTIONS } from './collections';

export class StoreCheckoutSessionRepository implements CheckoutSessionRepository {
  constructor(private readonly store: DocumentStore) {}

  private get sessions() {
    return this.store.collection<CheckoutSessionRecord>(COLLECTIONS.checkoutSessions);
  }

  get(sessionId: string): Promise<CheckoutSessionRecord | null> {
    return this.sessions.getGlobal(sessionId);
  }

  findByPaymentId(paymentId: string): Promise<CheckoutSessionRecord | null> {
    return this.sessions.findGlobal({ payment_id: paymentId });
  }

  insert(uow: UnitOfWork, record: Omit<CheckoutSessionRecord, 'version'>): CheckoutSessionRecord {
    return uow.insert<CheckoutSessionRecord>(COLLECTIONS.checkoutSessions, record);
  }

  update(uow: UnitOfWork, record: CheckoutSessionRecord): CheckoutSessionRecord {
    return uow.update<CheckoutSessionRecord>(COLLECTIONS.checkoutSessions, record);
  }
}

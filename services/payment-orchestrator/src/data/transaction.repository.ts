import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { TransactionRepository } from '../domain/payment/payment-ports';
import type { ProcessorTransaction } from '../domain/payment/payment';
import { TRANSACTIONS } from './collections';

/** A payment records a handful of transactions: one page holds them all. */
const MAX_PER_PAYMENT = 100;

export class StoreTransactionRepository implements TransactionRepository {
  constructor(private readonly store: DocumentStore) {}

  async listForPayment(scope: Scope, paymentId: string): Promise<ProcessorTransaction[]> {
    const page = await this.store.collection<ProcessorTransaction>(TRANSACTIONS).list(scope, { payment_id: paymentId }, { limit: MAX_PER_PAYMENT });
    return page.items.sort((a, b) => a.sequence - b.sequence);
  }

  listInPeriod(
    scope: Scope,
    filter: { kind: ProcessorTransaction['kind']; startsAt: string; endsBefore: string },
    page: PageRequest,
  ): Promise<Page<ProcessorTransaction>> {
    return this.store
      .collection<ProcessorTransaction>(TRANSACTIONS)
      .list(scope, { kind: filter.kind, created_at: { gte: filter.startsAt, lt: filter.endsBefore } }, page);
  }

  insert(uow: UnitOfWork, transaction: Omit<ProcessorTransaction, 'version'>): ProcessorTransaction {
    return uow.insert<ProcessorTransaction>(TRANSACTIONS, transaction);
  }
}

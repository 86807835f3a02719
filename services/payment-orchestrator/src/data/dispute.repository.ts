import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Dispute } from '../domain/disputes/dispute';
import type { DisputeRepository, DisputeSearch } from '../domain/disputes/dispute-ports';
import type { PeriodBounds } from '../domain/reports/payment-report';
import { DISPUTES } from './collections';

/** Disputes of one merchant in one mode (test and live are two worlds: a dispute of the other mode is not found). */
export class StoreDisputeRepository implements DisputeRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<Dispute>(DISPUTES);
  }

  get(scope: Scope, id: string): Promise<Dispute | null> {
    return this.collection.get(scope, id);
  }

  list(scope: Scope, filters: DisputeSearch, page: PageRequest): Promise<Page<Dispute>> {
    return this.collection.list(
      scope,
      { ...(filters.status ? { status: filters.status } : {}), ...(filters.payment_id ? { payment_id: filters.payment_id } : {}) },
      page,
    );
  }

  listForPayment(scope: Scope, paymentId: string, page: PageRequest): Promise<Page<Dispute>> {
    return this.collection.list(scope, { payment_id: paymentId }, page);
  }

  findByProcessorReference(scope: Scope, processor: string, processorReference: string): Promise<Dispute | null> {
    return this.collection.findOne(scope, { processor, processor_reference: processorReference });
  }

  /** GET /reports/payments: disputes opened in the period. */
  listOpenedInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Dispute>> {
    return this.collection.list(scope, { created_at: { gte: period.startsAt, lt: period.endsBefore } }, page);
  }

  /** GET /reports/payments: disputes won whose last move (the decision, the funds coming back) is in the period. */
  listWonInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Dispute>> {
    return this.collection.list(scope, { status: 'won', updated_at: { gte: period.startsAt, lt: period.endsBefore } }, page);
  }

  insert(uow: UnitOfWork, dispute: Omit<Dispute, 'version'>): Dispute {
    return uow.insert<Dispute>(DISPUTES, dispute);
  }

  update(uow: UnitOfWork, dispute: Dispute): Dispute {
    return uow.update<Dispute>(DISPUTES, dispute);
  }
}

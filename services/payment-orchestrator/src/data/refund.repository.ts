import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork, Where } from '@vaultline/store';
import type { RefundRepository, RefundSearch } from '../domain/refunds/refund-ports';
import type { Refund } from '../domain/refunds/refund';
import type { PeriodBounds } from '../domain/reports/payment-report';
import { REFUNDS } from './collections';

/** A payment is refunded a handful of times: one page holds them all. */
const MAX_PER_PAYMENT = 200;

/** Refunds of the caller's merchant and mode only: a refund of the other mode answers as unknown. */
export class StoreRefundRepository implements RefundRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<Refund>(REFUNDS);
  }

  async get(scope: Scope, id: string): Promise<Refund | null> {
    const refund = await this.collection.get(scope, id);
    return refund && refund.mode === scope.mode ? refund : null;
  }

  async listForPayment(scope: Scope, paymentId: string): Promise<Refund[]> {
    return (await this.collection.list(scope, { payment_id: paymentId, mode: scope.mode }, { limit: MAX_PER_PAYMENT })).items;
  }

  search(scope: Scope, filters: RefundSearch, page: PageRequest): Promise<Page<Refund>> {
    const where: Where = { mode: scope.mode };
    if (filters.status) where.status = filters.status;
    if (filters.payment_id) where.payment_id = filters.payment_id;
    return this.collection.list(scope, where, page);
  }

  findByProcessorReference(scope: Scope, processorReference: string): Promise<Refund | null> {
    return this.collection.findOne(scope, { processor_reference: processorReference, mode: scope.mode });
  }

  async listDue(now: Date, limit: number): Promise<Array<{ scope: Scope; refundId: string }>> {
    // Only pending refunds are ever due: the equality on status lets the index narrow the scan to them.
    const page = await this.collection.listAcrossMerchants({ status: 'pending', next_run_at: { lte: now.toISOString() } }, { limit });
    return page.items.map((refund) => ({ scope: { merchantId: refund.merchant_id, mode: refund.mode }, refundId: refund.id }));
  }

  /** GET /reports/payments: refunds that succeeded in the period (a settled refund is never updated again). */
  listSucceededInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Refund>> {
    return this.collection.list(scope, { mode: scope.mode, status: 'succeeded', updated_at: { gte: period.startsAt, lt: period.endsBefore } }, page);
  }

  insert(uow: UnitOfWork, refund: Omit<Refund, 'version'>): Refund {
    return uow.insert<Refund>(REFUNDS, refund);
  }

  update(uow: UnitOfWork, refund: Refund): Refund {
    return uow.update<Refund>(REFUNDS, refund);
  }
}

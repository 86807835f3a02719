import { scopeOfDocument, type Mode, type Scope } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type Page, type PageRequest, type StoredDocument, type UnitOfWork, type Where } from '@vaultline/store';
import type { DuePayment, PaymentRepository, PaymentSearch } from '../domain/payment/payment-ports';
import { authorizationKey, isFinal, searchFieldsOf, type Payment } from '../domain/payment/payment';
import { PAYMENTS, PAYMENT_SCHEDULE } from './collections';

/**
 * The payment's next_run_at, mirrored under the system scope so the worker finds due payments of every
 * merchant through an index. Written in lockstep with the payment (same id, same version), removed with
 * the payment's final write.
 */
export interface ScheduleEntry extends StoredDocument {
  owner_merchant_id: string;
  /** The payment's mode (absent on entries written before modes: test). */
  owner_mode?: Mode;
  due_at: string | null;
}

export class StorePaymentRepository implements PaymentRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<Payment>(PAYMENTS);
  }

  get(scope: Scope, id: string): Promise<Payment | null> {
    return this.collection.get(scope, id);
  }

  list(scope: Scope, page: PageRequest): Promise<Page<Payment>> {
    return this.collection.list(scope, {}, page);
  }

  async listDue(now: Date, limit: number): Promise<DuePayment[]> {
    const page = await this.store.collection<ScheduleEntry>(PAYMENT_SCHEDULE).list(SYSTEM_SCOPE, { due_at: { lte: now.toISOString() } }, { limit });
    return page.items.map((entry) => ({ scope: { merchantId: entry.owner_merchant_id, mode: entry.owner_mode ?? 'test' }, paymentId: entry.id }));
  }

  findByAuthorization(scope: Scope, account: string, reference: string): Promise<Payment | null> {
    return this.collection.findOne(scope, { authorization_key: authorizationKey(account, reference) });
  }

  search(scope: Scope, filters: PaymentSearch, page: PageRequest): Promise<Page<Payment>> {
    return this.collection.list(scope, paymentWhere(filters), page);
  }

  async listAuthorizedBefore(status: 'authorized' | 'partially_captured' | 'canceling', authorizedBefore: Date, limit: number): Promise<DuePayment[]> {
    const page = await this.collection.listAcrossMerchants({ status, authorized_at: { lte: authorizedBefore.toISOString() } }, { limit });
    return page.items.map((payment) => ({ scope: scopeOfDocument(payment), paymentId: payment.id }));
  }

  updateSettled(uow: UnitOfWork, payment: Payment): Payment {
    if (!isFinal(payment.status)) throw new Error('updateSettled is for final payments; a payment under way goes through update');
    return uow.update<Payment>(PAYMENTS, { ...payment, ...searchFieldsOf(payment) });
  }

  insert(uow: UnitOfWork, payment: Omit<Payment, 'version'>): Payment {
    const inserted = uow.insert<Payment>(PAYMENTS, { ...payment, ...searchFieldsOf(payment) });
    if (!isFinal(payment.status))
      uow.insert<ScheduleEntry>(PAYMENT_SCHEDULE, {
        id: payment.id,
        merchant_id: SYSTEM_SCOPE,
        owner_merchant_id: payment.merchant_id,
        owner_mode: payment.mode,
        due_at: payment.next_run_at,
      });
    return inserted;
  }

  update(uow: UnitOfWork, payment: Payment): Payment {
    const updated = uow.update<Payment>(PAYMENTS, { ...payment, ...searchFieldsOf(payment) });
    // Unconditional: a payment moving from one final status to another (failed → captured, a late capture)
    // has no entry left; the payment's own compare-and-set guards the write.
    if (isFinal(payment.status)) uow.delete(PAYMENT_SCHEDULE, SYSTEM_SCOPE, payment.id);
    else
      uow.update<ScheduleEntry>(PAYMENT_SCHEDULE, {
        id: payment.id,
        merchant_id: SYSTEM_SCOPE,
        version: payment.version,
        owner_merchant_id: payment.merchant_id,
        owner_mode: payment.mode,
        due_at: payment.next_run_at,
      });
    return updated;
  }
}

/** The filters as store conditions; use_case matches either interface's words (shown_use_case holds the creating interface's). */
function paymentWhere(filters: PaymentSearch): Where {
  const where: Where = {};
  if (filters.status) where.status = filters.status;
  if (filters.reference) where.reference = filters.reference;
  if (filters.customer_id) where.customer_id = filters.customer_id;
  if (filters.use_case) where.shown_use_case = filters.use_case;
  if (filters.created_gte || filters.created_lte) {
    where.created_at = { ...(filters.created_gte ? { gte: filters.created_gte } : {}), ...(filters.created_lte ? { lte: filters.created_lte } : {}) };
  }
  return where;
}

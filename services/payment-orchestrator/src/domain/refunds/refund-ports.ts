import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Refund, RefundStatus } from './refund';

export interface RefundSearch {
  status?: RefundStatus;
  payment_id?: string;
}

export interface RefundRepository {
  get(scope: Scope, id: string): Promise<Refund | null>;
  /** Every refund of one payment, oldest first (a payment has a handful). */
  listForPayment(scope: Scope, paymentId: string): Promise<Refund[]>;
  search(scope: Scope, filters: RefundSearch, page: PageRequest): Promise<Page<Refund>>;
  /** A refund by the processor's reference of it (a notification that names no refund id). */
  findByProcessorReference(scope: Scope, processorReference: string): Promise<Refund | null>;
  /** Background: refunds of every merchant whose next_run_at is due. */
  listDue(now: Date, limit: number): Promise<Array<{ scope: Scope; refundId: string }>>;
  insert(uow: UnitOfWork, refund: Omit<Refund, 'version'>): Refund;
  /** Compare-and-set on the version the refund was read with. */
  update(uow: UnitOfWork, refund: Refund): Refund;
}

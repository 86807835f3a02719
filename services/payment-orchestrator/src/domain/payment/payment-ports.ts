import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Payment, PaymentStatus, ProcessorTransaction } from './payment';

export interface DuePayment {
  scope: Scope;
  paymentId: string;
}

export interface PaymentRepository {
  get(scope: Scope, id: string): Promise<Payment | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<Payment>>;
  /** Background worker: payments of every merchant whose next_run_at is due. */
  listDue(now: Date, limit: number): Promise<DuePayment[]>;
  insert(uow: UnitOfWork, payment: Omit<Payment, 'version'>): Payment;
  /** Compare-and-set on the version the payment was read with: two concurrent moves cannot both commit. */
  update(uow: UnitOfWork, payment: Payment): Payment;
  /**
   * A payment already final (captured) whose refund totals change: compare-and-set on its version like
   * update, without touching the worker's schedule (a final payment has no entry there).
   */
  updateSettled(uow: UnitOfWork, payment: Payment): Payment;
  /** The payment whose authorization at this processor account has this reference (the account's own id of the payment). */
  findByAuthorization(scope: Scope, account: string, reference: string): Promise<Payment | null>;
  /** GET /payments with filters (combinable), newest first by default. */
  search(scope: Scope, filters: PaymentSearch, page: PageRequest): Promise<Page<Payment>>;
  /** Background: payments of every merchant in this status whose authorization was made at or before `authorizedBefore`. */
  listAuthorizedBefore(status: 'authorized' | 'partially_captured' | 'canceling', authorizedBefore: Date, limit: number): Promise<DuePayment[]>;
}

export interface PaymentSearch {
  status?: PaymentStatus;
  reference?: string;
  customer_id?: string;
  /** Either interface's words (ONE_OFF …, guest_payment …). */
  use_case?: string;
  created_gte?: string;
  created_lte?: string;
}

export interface TransactionRepository {
  listForPayment(scope: Scope, paymentId: string): Promise<ProcessorTransaction[]>;
  /** Transactions of one kind recorded in [startsAt, endsBefore), a page at a time (reports). */
  listInPeriod(
    scope: Scope,
    filter: { kind: ProcessorTransaction['kind']; startsAt: string; endsBefore: string },
    page: PageRequest,
  ): Promise<Page<ProcessorTransaction>>;
  insert(uow: UnitOfWork, transaction: Omit<ProcessorTransaction, 'version'>): ProcessorTransaction;
}

import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Dispute, DisputeStatus } from './dispute';

/** GET /disputes filters, combinable (every one given must hold). */
export interface DisputeSearch {
  status?: DisputeStatus;
  payment_id?: string;
}

/** Every query takes the scope (merchant and mode) first: a dispute of another merchant or mode is not found. */
export interface DisputeRepository {
  get(scope: Scope, id: string): Promise<Dispute | null>;
  list(scope: Scope, filters: DisputeSearch, page: PageRequest): Promise<Page<Dispute>>;
  listForPayment(scope: Scope, paymentId: string, page: PageRequest): Promise<Page<Dispute>>;
  /** The dispute a processor account reported under this reference (unique per account). */
  findByProcessorReference(scope: Scope, processor: string, processorReference: string): Promise<Dispute | null>;
  /** A second dispute with the same processor and reference fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, dispute: Omit<Dispute, 'version'>): Dispute;
  /** Compare-and-set on the version the dispute was read with. */
  update(uow: UnitOfWork, dispute: Dispute): Dispute;
}

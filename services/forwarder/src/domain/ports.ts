import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { ForwardRecord } from './forward-record';
import type { MerchantDestination } from './merchant-destination';

export type { CardDataSource } from './card-data';

/** Runs work in one unit of work and commits it atomically (DocumentStore.transaction). */
export type TransactionRunner = <R>(work: (uow: UnitOfWork) => R | Promise<R>) => Promise<R>;

/** The audit records of forwards. */
export interface ForwardRecordRepository {
  insert(uow: UnitOfWork, record: ForwardRecord): void;
}

/** Per-merchant destinations added by operators through the admin API. */
export interface DestinationRepository {
  get(merchantId: string, id: string): Promise<MerchantDestination | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<MerchantDestination>>;
  insert(uow: UnitOfWork, destination: Omit<MerchantDestination, 'version'>): MerchantDestination;
  delete(uow: UnitOfWork, destination: MerchantDestination): void;
}

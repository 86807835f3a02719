import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { ForwardRecord } from './forward-record';
import type { MerchantDestination } from './merchant-destination';

export type { TransactionRunner } from '@vaultline/store';

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

/** A request to a destination, as the forward sends it. */
export interface DestinationRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface DestinationResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  timings: { totalMs: number };
}

/**
 * Sends a filled request to its destination: libs/egress's client, which owns the address checks,
 * timeouts and size limit. A failure is an AppError whose code says what happened: destination_not_allowed
 * (nothing was sent), destination_timeout, destination_unreachable, destination_response_too_large.
 */
export interface DestinationClient {
  request(request: DestinationRequest): Promise<DestinationResponse>;
}

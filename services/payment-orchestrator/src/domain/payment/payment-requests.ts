import type { Scope, Mode } from '@vaultline/core';
import { createHash } from 'node:crypto';
import { ConcurrentModificationError, type UnitOfWork } from '@vaultline/store';
import type { Payment } from './payment';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { TransactionRunner } from '@vaultline/store';

/**
 * The merchant's Idempotency-Key on a payment request (creation, subsequent, capture, cancel, refund).
 * The service's Idempotency-Key layer (libs/http) answers repeats while its TTL store holds the first
 * answer; when the process died with the request in flight, or the store lost the record (the embedded
 * profile's in-process store after a restart), the retry runs this use case again. So the key is also
 * committed here, with the payment the request made, and this record is the source of truth: the retry
 * gets that payment (as it is now) instead of a second payment, or of already_captured for a capture
 * that did happen.
 *
 * A key is the merchant's own, in one mode, on one method and route, for IDEMPOTENCY_KEY_TTL (as in the
 * Idempotency-Key layer of libs/http): another merchant, or the other mode's key, using the same key makes its own request (and
 * learns nothing of the first), and a repeat after the retention time is a new request.
 */
export interface PaymentRequestKey {
  /** The mode of the key that sent the request. */
  mode: Mode;
  /** Method and route with its parameters' values (a subsequent payment's and a capture's name their payment), never the path as spelled. */
  route: string;
  key: string;
}

/** The record of one keyed request: its id is derived from merchant, mode, route and key, so a second insert cannot commit. */
export interface PaymentRequest {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  version: number;
  payment_id: string;
  /** A refund request's: the refund it created (a retry answers it). */
  refund_id?: string;
  created_at: string;
}

export interface PaymentRequestRepository {
  get(scope: Scope, id: string): Promise<PaymentRequest | null>;
  insert(uow: UnitOfWork, request: Omit<PaymentRequest, 'version'>): PaymentRequest;
  delete(uow: UnitOfWork, request: PaymentRequest): void;
  /** Records of every merchant created at or before `createdBy` (the pruner's scan). */
  listCreatedBy(createdBy: string, limit: number): Promise<PaymentRequest[]>;
}

export interface PaymentRequestPorts {
  payments: PaymentRepository;
  /** Absent: requests are not remembered here (the gateway's record alone). */
  paymentRequests?: PaymentRequestRepository;
  transaction: TransactionRunner;
  clock: Clock;
  /** How long a request's record answers repeats (IDEMPOTENCY_KEY_TTL, 24 h). */
  requestRetentionMs: number;
}

export const idOf = (merchantId: string, requestKey: PaymentRequestKey): string =>
  createHash('sha256')
    .update(JSON.stringify([merchantId, requestKey.mode, requestKey.route, requestKey.key]))
    .digest('hex');

/** A record created at or before this instant has reached the retention time. */
const expiredAt = (retentionMs: number, now: Date): string => new Date(now.getTime() - retentionMs).toISOString();

/** Deletes a record that outlived the retention time (a concurrent delete of it is as good). */
async function forget(
  { paymentRequests, transaction }: { paymentRequests: PaymentRequestRepository; transaction: TransactionRunner },
  request: PaymentRequest,
): Promise<void> {
  try {
    await transaction((uow) => paymentRequests.delete(uow, request));
  } catch (error) {
    if (!(error instanceof ConcurrentModificationError)) throw error;
  }
}

/** The payment an earlier request with this key made, or null (no key, the first request, or the earlier one's record expired). */
export async function paymentOfEarlierRequest(
  ports: PaymentRequestPorts,
  scope: Scope,
  requestKey: PaymentRequestKey | null | undefined,
): Promise<Payment | null> {
  const { paymentRequests } = ports;
  if (!requestKey || !paymentRequests) return null;
  const earlier = await paymentRequests.get(scope, idOf(scope.merchantId, requestKey));
  if (!earlier) return null;
  if (earlier.created_at <= expiredAt(ports.requestRetentionMs, ports.clock.now())) {
    // The record goes now, so this request's own record can take its id.
    await forget({ paymentRequests, transaction: ports.transaction }, earlier);
    return null;
  }
  return ports.payments.get(scope, earlier.payment_id);
}

/** Commits the key with the payment the request made (in the request's unit of work). */
export function rememberRequest(
  ports: PaymentRequestPorts,
  uow: UnitOfWork,
  scope: Scope,
  requestKey: PaymentRequestKey | null | undefined,
  paymentId: string,
  refundId?: string,
): void {
  if (!requestKey || !ports.paymentRequests) return;
  ports.paymentRequests.insert(uow, {
    id: idOf(scope.merchantId, requestKey),
    merchant_id: scope.merchantId,
    mode: scope.mode,
    payment_id: paymentId,
    ...(refundId ? { refund_id: refundId } : {}),
    created_at: ports.clock.now().toISOString(),
  });
}

export type PruneExpiredPaymentRequests = () => Promise<number>;

/** Deletes every record older than the retention time, a batch at a time; answers how many went. */
export function pruneExpiredPaymentRequests(ports: {
  paymentRequests: PaymentRequestRepository;
  transaction: TransactionRunner;
  clock: Clock;
  requestRetentionMs: number;
}): PruneExpiredPaymentRequests {
  const BATCH = 500;
  return async () => {
    const cutoff = expiredAt(ports.requestRetentionMs, ports.clock.now());
    let pruned = 0;
    for (;;) {
      const batch = await ports.paymentRequests.listCreatedBy(cutoff, BATCH);
      for (const request of batch) await forget(ports, request);
      pruned += batch.length;
      if (batch.length < BATCH) return pruned;
    }
  };
}

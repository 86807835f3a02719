import { createHash } from 'node:crypto';
import type { UnitOfWork } from '@vaultline/store';
import type { Payment } from './payment/payment';
import type { Clock, PaymentRepository } from './ports';

/**
 * The merchant's Idempotency-Key on a payment request (creation, subsequent, capture), as the gateway
 * passes it on. The gateway answers repeats while it holds the first answer; when it died with the
 * request in flight, its claim lapses and the retry reaches this service again. So the key is also
 * committed here, with the payment the request made: the retry gets that payment (as it is now) instead
 * of a second payment, or of already_captured for a capture that did happen.
 */
export interface PaymentRequestKey {
  /** Method and path (a subsequent payment's and a capture's name their payment). */
  route: string;
  key: string;
}

/** The record of one keyed request: its id is derived from route and key, so a second insert cannot commit. */
export interface PaymentRequest {
  id: string;
  merchant_id: string;
  version: number;
  payment_id: string;
  /** A refund request's: the refund it created (a retry answers it). */
  refund_id?: string;
  created_at: string;
}

export interface PaymentRequestRepository {
  get(merchantId: string, id: string): Promise<PaymentRequest | null>;
  insert(uow: UnitOfWork, request: Omit<PaymentRequest, 'version'>): PaymentRequest;
}

export interface PaymentRequestPorts {
  payments: PaymentRepository;
  /** Absent: requests are not remembered here (the gateway's record alone). */
  paymentRequests?: PaymentRequestRepository;
  clock: Clock;
}

export const idOf = (requestKey: PaymentRequestKey): string => createHash('sha256').update(`${requestKey.route}\n${requestKey.key}`).digest('hex');

/** The payment an earlier request with this key made, or null (no key, or the first request). */
export async function paymentOfEarlierRequest(ports: PaymentRequestPorts, merchantId: string, requestKey: PaymentRequestKey | null | undefined): Promise<Payment | null> {
  if (!requestKey || !ports.paymentRequests) return null;
  const earlier = await ports.paymentRequests.get(merchantId, idOf(requestKey));
  return earlier ? ports.payments.get(merchantId, earlier.payment_id) : null;
}

/** Commits the key with the payment the request made (in the request's unit of work). */
export function rememberRequest(ports: PaymentRequestPorts, uow: UnitOfWork, merchantId: string, requestKey: PaymentRequestKey | null | undefined, paymentId: string, refundId?: string): void {
  if (!requestKey || !ports.paymentRequests) return;
  ports.paymentRequests.insert(uow, { id: idOf(requestKey), merchant_id: merchantId, payment_id: paymentId, ...(refundId ? { refund_id: refundId } : {}), created_at: ports.clock.now().toISOString() });
}

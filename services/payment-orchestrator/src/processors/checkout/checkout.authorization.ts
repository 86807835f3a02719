import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import { authorizationInput, sendMapped, type ProcessorTransport } from '../transport-port';
import type { CheckoutCredentials } from './checkout.account';
import { toCheckoutPaymentRequest } from './checkout.mapper';
import { checkoutThreeDsFields, fromCheckoutPaymentLookup, fromCheckoutThreeDsPaymentResponse, toCheckoutPaymentLookup } from './checkout.three-ds';

/**
 * Checkout.com's authorization with 3-D Secure: `POST /payments` (through the forwarder, `3ds` and the
 * redirect URLs beside the card placeholders) may answer 202 Pending; the consumer's return is settled by
 * `GET /payments/{cko-session-id}` (through egress: no card data).
 */
export function checkoutAuthorization(
  transport: ProcessorTransport,
  baseUrl: string,
  credentials: CheckoutCredentials,
): Pick<ProcessorConnection, 'authorize' | 'resumeAuthorization'> {
  return {
    async authorize(payment) {
      const input = authorizationInput(payment);
      const request = toCheckoutPaymentRequest(input, credentials);
      const consumer = payment.consumer_authentication;
      const body = consumer ? { ...(request.body as Record<string, unknown>), ...checkoutThreeDsFields(input, consumer) } : request.body;
      return fromCheckoutThreeDsPaymentResponse(await sendMapped(transport, baseUrl, payment, { ...request, body }));
    },
    async resumeAuthorization(payment, returned) {
      const request = toCheckoutPaymentLookup(credentials, returned.parameters, returned.processor_reference ?? returned.resume.payment_id ?? null);
      if (!request) return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: null };
      return fromCheckoutPaymentLookup(await sendMapped(transport, baseUrl, payment, request), returned.resume);
    },
  };
}

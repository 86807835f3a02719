import type { ProcessorPayment } from '../domain/ports';
import type { Mode } from '../domain/payment/payment';
import type { AuthorizationInput, ProcessorHttpRequest, ProcessorHttpResponse } from './processor-wire';

/**
 * How a real processor's connection reaches its processor. A request that carries card data goes through
 * the forwarder (its placeholders filled there from the token); any other through egress to the account's
 * base URL. A timeout or refused connection throws.
 */
export interface ProcessorTransport {
  /** `mode`: the payment's key mode, signed for the forwarder (test keys never reach live hosts, nor the reverse). */
  forward(request: { merchantId: string; mode: Mode | null; tokenId: string; url: string; headers: Record<string, string>; body: unknown }): Promise<ProcessorHttpResponse>;
  send(request: { url: string; method: 'POST' | 'GET'; headers: Record<string, string>; body?: unknown }): Promise<ProcessorHttpResponse>;
}

/** Sends a mapped request; a transport failure (timeout, refused) is the retryable processor error. */
export async function sendMapped(transport: ProcessorTransport, baseUrl: string, payment: ProcessorPayment, request: ProcessorHttpRequest): Promise<ProcessorHttpResponse> {
  const url = `${baseUrl}${request.path}`;
  try {
    return request.carries_card_data
      ? await transport.forward({ merchantId: payment.merchant_id, mode: payment.mode ?? null, tokenId: payment.token_id, url, headers: request.headers, body: request.body })
      : await transport.send({ url, method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
  } catch {
    return { status: 503, body: null };
  }
}

/** The engine's view of a payment, completed with what an authorization mapper needs (absent: the safe default). */
export function authorizationInput(payment: ProcessorPayment): AuthorizationInput {
  return {
    ...payment,
    cardholder_name: payment.cardholder_name ?? null,
    capture_mode: payment.capture_mode ?? 'automatic',
    security_code_available: payment.security_code_available ?? false,
    initial_processor_reference: payment.initial_processor_reference ?? null,
  };
}

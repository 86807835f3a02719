import type { Mode, Scope } from '@vaultline/core';
import type { ProcessorPayment } from '../domain/processor-port/processor-port';
import {
  SECURITY_CODE_GONE,
  withoutSecurityCode,
  type AuthorizationInput,
  type ProcessorBodyFormat,
  type ProcessorHttpRequest,
  type ProcessorHttpResponse,
} from './processor-wire';

/**
 * How a real processor's connection reaches its processor. A request that carries card data goes through
 * the forwarder (its placeholders filled there from the token); any other through egress to the account's
 * base URL. A timeout or refused connection throws.
 */
export interface ProcessorTransport {
  /** `scope`: the payment's merchant and key mode, signed for the forwarder (test keys never reach live hosts, nor the reverse). */
  forward(request: {
    scope: Scope;
    tokenId: string;
    url: string;
    headers: Record<string, string>;
    format?: 'json' | 'form';
    body: unknown;
  }): Promise<ProcessorHttpResponse>;
  /** `mode`: the payment's mode, checked again against the URL's host before anything is sent (a test payment never reaches a live host). */
  send(request: {
    mode: Mode;
    url: string;
    method: 'POST' | 'GET' | 'PUT';
    headers: Record<string, string>;
    format?: ProcessorBodyFormat;
    body?: unknown;
  }): Promise<ProcessorHttpResponse>;
}

/**
 * Sends a request that carries no card data (a dispute's answer, an evidence file) through egress to
 * `baseUrl`; a transport failure (timeout, refused) is answered as the retryable 503 it stands for.
 */
export async function sendWithoutCard(
  transport: ProcessorTransport,
  mode: Mode,
  baseUrl: string,
  request: Omit<ProcessorHttpRequest, 'carries_card_data'>,
): Promise<ProcessorHttpResponse> {
  try {
    return await transport.send({
      mode,
      url: `${baseUrl}${request.path}`,
      method: request.method,
      headers: request.headers,
      format: request.format ?? 'json',
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  } catch {
    return { status: 503, body: null };
  }
}

/**
 * Sends a mapped request; a transport failure (timeout, refused) is the retryable processor error. When
 * the forwarder says the token's security code is gone (the vault keeps it 15 minutes; the engine's own
 * clock decided it was still there), the request goes once more without it, as a late one would have.
 */
export async function sendMapped(
  transport: ProcessorTransport,
  baseUrl: string,
  payment: ProcessorPayment,
  request: ProcessorHttpRequest,
): Promise<ProcessorHttpResponse> {
  const url = `${baseUrl}${request.path}`;
  const format = request.format ?? 'json';
  const forward = (body: unknown) =>
    transport.forward({
      scope: { merchantId: payment.merchant_id, mode: payment.mode },
      tokenId: payment.token_id,
      url,
      headers: request.headers,
      format: format === 'form' ? 'form' : 'json',
      body,
    });
  try {
    if (!request.carries_card_data)
      return await transport.send({
        mode: payment.mode,
        url,
        method: request.method,
        headers: request.headers,
        format,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
    try {
      return await forward(request.body);
    } catch (error) {
      const withoutCode = isSecurityCodeGone(error) ? withoutSecurityCode(request.body) : null;
      if (withoutCode === null) throw error;
      return await forward(withoutCode);
    }
  } catch {
    return { status: 503, body: null };
  }
}

function isSecurityCodeGone(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return (SECURITY_CODE_GONE as readonly unknown[]).includes(code);
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

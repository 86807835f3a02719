import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import { context, propagation } from '@opentelemetry/api';
import { AppError, UnavailableError } from '@vaultline/core';
import type { ApiKeyMode, InternalTokenSigner } from '@vaultline/auth';
import { requestIdOf } from '@vaultline/http';
import type { UpstreamService } from '../domain/routing';
import { clientAddressOf } from './client-address';

/**
 * How the gateway reaches one service behind it: over HTTP (HttpUpstream: every profile, and a
 * service on a thread of its own in the embedded profile) or, for a service on the gateway's own
 * thread, by handing the request to its express app (InProcessUpstream). Either way the service sees
 * the same request: the path, the headers below and the internal JWT, which it verifies.
 */
export interface Upstream {
  /** Sends the merchant's request (its body still unread) as `call` says, and writes the service's answer on `res`. */
  send(req: Request, res: Response, call: UpstreamCall): Promise<void>;
  close(): Promise<void>;
}

export interface UpstreamCall {
  service: UpstreamService;
  /** Path and query, unchanged from the merchant's request unless rewritten (admin). */
  path: string;
  merchantId: string;
  scopes: string[];
  /** The merchant key's mode; absent for public routes and the admin API. */
  mode?: ApiKeyMode;
}

export class UpstreamTimeoutError extends AppError {
  constructor(service: string) {
    super('upstream_timeout', 504, `The ${service} service did not answer in time.`, {}, true);
  }
}

/** The answer when a service cannot be reached. */
export function serviceUnavailable(service: string): UnavailableError {
  return new UnavailableError(`The ${service} service is unavailable; retry later.`);
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade'];

/**
 * Request headers never forwarded: hop-by-hop, Host and the length (set for the body sent), the
 * merchant's own credentials (X-API-Key, X-Admin-Key, the dashboard's cookie and CSRF token), anything that could pass for internal identity
 * (Authorization is replaced by the internal JWT; X-Forward-Authorization is set only by us), and the
 * request id / trace headers, which the gateway sets itself.
 */
const STRIPPED_REQUEST_HEADERS = new Set([
  ...HOP_BY_HOP,
  'host',
  'content-length',
  'expect',
  'x-api-key',
  'x-admin-key',
  'authorization',
  'x-forward-authorization',
  'x-request-id',
  'traceparent',
  'tracestate',
  'baggage',
  'x-forwarded-for',
  // The dashboard's session cookie and CSRF token: the gateway's own credentials, like X-API-Key.
  'cookie',
  'x-csrf-token',
]);
const STRIPPED_RESPONSE_HEADERS = new Set([...HOP_BY_HOP, 'x-request-id', 'x-powered-by', 'date']);

/**
 * The headers a service receives for a merchant's request: the merchant's own minus the stripped
 * ones, the internal JWT for the call's merchant and scopes, the request id, the client address
 * and the trace context. Without content-length: the caller sets it for the body it sends.
 */
export function upstreamRequestHeaders(req: Request, call: UpstreamCall, signer: InternalTokenSigner): Record<string, string> {
  const headers = forwardedHeaders(req.headers);
  const merchantAuthorization = req.get('authorization');
  // The forwarder passes a merchant's own Authorization on to the destination.
  if (call.service === 'forwarder' && merchantAuthorization) headers['x-forward-authorization'] = merchantAuthorization;
  headers.authorization = `Bearer ${signer.sign(call.service, { merchantId: call.merchantId, scopes: call.scopes, mode: call.mode })}`;
  headers['x-request-id'] = requestIdOf(req);
  headers['x-forwarded-for'] = clientAddressOf(req);
  propagation.inject(context.active(), headers);
  return headers;
}

/** Copies the merchant's headers minus the stripped ones and any named in its Connection header. */
export function forwardedHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const named = String(incoming.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || STRIPPED_REQUEST_HEADERS.has(lower) || named.includes(lower)) continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Sets a service's response headers on the merchant's response, minus hop-by-hop and those the gateway sets itself. */
export function copyResponseHeaders(headers: Record<string, string | string[] | number | undefined>, res: Response): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !STRIPPED_RESPONSE_HEADERS.has(name.toLowerCase())) res.setHeader(name, value);
  }
}

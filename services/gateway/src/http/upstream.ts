import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Request, Response } from 'express';
import { context, propagation } from '@opentelemetry/api';
import { AppError, UnavailableError } from '@vaultline/core';
import type { ApiKeyMode, InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import type { UpstreamService } from '../domain/routing';
import { clientAddressOf } from './client-address';

/**
 * How the gateway hands a request its policy chain let through to the service behind the route, which
 * answers on the merchant's response: InProcessUpstream mounts the service's routes (the embedded
 * profile: a service on the gateway's thread, its request context from the edge, no token), HttpUpstream
 * sends it over HTTP with the internal JWT (the local and Kubernetes profiles, and a service on a worker
 * thread of its own). The service sees the same request either way: the path, the headers below, and the
 * request context (merchant, mode, scopes, key id, merchant name, client address, request id, trace).
 */
export interface Upstream {
  /** Hands the merchant's request to the service as `call` says; errors before the service answers go to `next`'s error handler. */
  serve(req: Request, res: Response, call: UpstreamCall, next: NextFunction): Promise<void>;
  close(): Promise<void>;
}

/** A service's answer: status and headers, and the body still to be read. */
export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface UpstreamCall {
  service: UpstreamService;
  /** Path and query, unchanged from the merchant's request unless rewritten (admin). */
  path: string;
  merchantId: string;
  scopes: string[];
  /** The merchant key's mode; absent for public routes and the admin API. */
  mode?: ApiKeyMode;
  /** The merchant's API key (its id); absent for public routes and the admin API. */
  keyId?: string;
  /** The merchant's name (signed into the internal token: the hosted page shows it by default). */
  merchantName?: string;
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

const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
];

/**
 * Request headers a service never sees, whichever way it is reached: the merchant's own credentials
 * (X-API-Key, X-Admin-Key, the dashboard's cookie and CSRF token), anything that could pass for
 * internal identity (Authorization: the merchant's own reaches the forwarder as X-Forward-Authorization,
 * which only the gateway sets), and the request id, client address and trace headers, which the request
 * context carries.
 */
export const MERCHANT_CREDENTIAL_HEADERS: readonly string[] = [
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
];

/** Over HTTP also hop-by-hop, Host and the length (set for the body sent). */
const STRIPPED_REQUEST_HEADERS = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect', ...MERCHANT_CREDENTIAL_HEADERS]);
const STRIPPED_RESPONSE_HEADERS = new Set([...HOP_BY_HOP, 'x-request-id', 'x-powered-by', 'date']);

/**
 * The headers a service receives for a merchant's request: the merchant's own minus the stripped
 * ones, the internal JWT for the call's merchant and scopes, the request id, the client address
 * and the trace context; the length is that of the body read (it may have come chunked).
 */
export function upstreamRequestHeaders(req: Request, body: Buffer | null, call: UpstreamCall, signer: InternalTokenSigner): Record<string, string> {
  const headers = forwardedHeaders(req.headers);
  const merchantAuthorization = req.get('authorization');
  // The forwarder passes a merchant's own Authorization on to the destination.
  if (call.service === 'forwarder' && merchantAuthorization) headers['x-forward-authorization'] = merchantAuthorization;
  headers.authorization = `Bearer ${signer.sign(call.service, { merchantId: call.merchantId, scopes: call.scopes, mode: call.mode, keyId: call.keyId, merchantName: call.merchantName })}`;
  headers['x-request-id'] = requestIdOf(req);
  headers['x-forwarded-for'] = clientAddressOf(req);
  if (body) headers['content-length'] = String(body.length);
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

/** Writes a service's answer on the merchant's response; a body cut off midway (either side went away) ends the connection. */
export async function relayResponse(response: UpstreamResponse, res: Response, logger: Logger, service: string): Promise<void> {
  res.status(response.status);
  copyResponseHeaders(response.headers, res);
  try {
    await pipeline(response.body, res);
  } catch (error) {
    logger.warn({ err: error, service, request_id: requestIdOf(res.req) }, 'response stream interrupted');
    res.destroy();
  }
}

import { pipeline } from 'node:stream/promises';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { context, propagation } from '@opentelemetry/api';
import { AppError, UnavailableError } from '@vaultline/core';
import type { ApiKeyMode, InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import type { UpstreamService } from '../domain/routing';
import { clientAddressOf } from './client-address';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade'];

/**
 * Request headers never forwarded: hop-by-hop, Host and the length (recomputed), the merchant's
 * own credentials (X-API-Key, X-Admin-Key), anything that could pass for internal identity
 * (Authorization is replaced by the internal JWT; X-Forward-Authorization is set only by us),
 * and the request id / trace headers, which the gateway sets itself.
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
]);
const STRIPPED_RESPONSE_HEADERS = new Set([...HOP_BY_HOP, 'x-request-id', 'x-powered-by', 'date']);

export interface ProxyCall {
  service: UpstreamService;
  /** Path and query, unchanged from the merchant's request unless rewritten (admin). */
  path: string;
  merchantId: string;
  scopes: string[];
  /** The merchant key's mode; absent for public routes and the admin API. */
  mode?: ApiKeyMode;
  body: Buffer | null;
}

export class UpstreamTimeoutError extends AppError {
  constructor(service: string) {
    super('upstream_timeout', 504, `The ${service} service did not answer in time.`, {}, true);
  }
}

/** The answer when a service cannot be reached (down, or its thread ended). */
export function serviceUnavailable(service: string): UnavailableError {
  return new UnavailableError(`The ${service} service is unavailable; retry later.`);
}

/** Forwards merchant requests to the services with an internal JWT, over a keep-alive pool each. */
export class UpstreamProxy {
  private readonly pools = new Map<UpstreamService, Pool>();

  constructor(
    private readonly deps: { signer: InternalTokenSigner; serviceUrls: Record<UpstreamService, string>; logger: Logger; timeoutMs: number },
  ) {}

  private pool(service: UpstreamService): Pool {
    let pool = this.pools.get(service);
    if (!pool) {
      pool = new Pool(new URL(this.deps.serviceUrls[service]).origin, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(service, pool);
    }
    return pool;
  }

  /** Sends the call and streams the upstream's status, headers and body back to `res`. */
  async forward(req: Request, res: Response, call: ProxyCall): Promise<void> {
    const requestId = requestIdOf(req);
    const headers = upstreamRequestHeadersWithBody(req, call, this.deps.signer, call.body);

    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await this.pool(call.service).request({
        method: req.method as 'GET',
        path: call.path,
        headers,
        body: call.body && call.body.length > 0 ? call.body : null,
        headersTimeout: this.deps.timeoutMs,
        bodyTimeout: this.deps.timeoutMs,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, service: call.service, request_id: requestId }, 'upstream request failed');
      if (error instanceof undiciErrors.HeadersTimeoutError) throw new UpstreamTimeoutError(call.service);
      throw serviceUnavailable(call.service);
    }

    res.status(upstream.statusCode);
    copyResponseHeaders(upstream.headers, res);
    try {
      await pipeline(upstream.body, res);
    } catch (error) {
      // The client went away or the upstream broke mid-body: nothing more can be sent.
      this.deps.logger.warn({ err: error, service: call.service, request_id: requestId }, 'response stream interrupted');
      res.destroy();
    }
  }

  /** Resolves when the service's /health answers 200 within `timeoutMs`. */
  async checkHealth(service: UpstreamService, timeoutMs = 2_000): Promise<void> {
    const response = await this.pool(service).request({ method: 'GET', path: '/health', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`${service} /health answered ${response.statusCode}`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}

/** Sets a service's response headers on the merchant's response, minus hop-by-hop and those the gateway sets itself. */
export function copyResponseHeaders(headers: Record<string, string | string[] | number | undefined>, res: Response): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !STRIPPED_RESPONSE_HEADERS.has(name.toLowerCase())) res.setHeader(name, value);
  }
}

/**
 * The headers a service receives for a merchant's request: the merchant's own minus the stripped
 * ones, the internal JWT for the call's merchant and scopes, the request id, the client address
 * and the trace context. Without content-length: the caller sets it for the body it sends.
 */
export function upstreamRequestHeaders(req: Request, call: Pick<ProxyCall, 'service' | 'merchantId' | 'scopes' | 'mode'>, signer: InternalTokenSigner): Record<string, string> {
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

/** upstreamRequestHeaders with the length of the body that is sent along (already read). */
export function upstreamRequestHeadersWithBody(
  req: Request,
  call: Pick<ProxyCall, 'service' | 'merchantId' | 'scopes' | 'mode'>,
  signer: InternalTokenSigner,
  body: Buffer | null,
): Record<string, string> {
  const headers = upstreamRequestHeaders(req, call, signer);
  if (body) headers['content-length'] = String(body.length);
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

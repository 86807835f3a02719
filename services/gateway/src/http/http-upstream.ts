import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { Agent, Pool, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import { readRawBody } from './read-body';
import { UpstreamTimeoutError, copyResponseHeaders, serviceUnavailable, upstreamRequestHeaders, type Upstream, type UpstreamCall } from './upstream';

export interface HttpUpstreamOptions {
  /** The service's base URL (its loopback port in the embedded and local profiles). */
  url: string;
  signer: InternalTokenSigner;
  logger: Logger;
  /** How long the service may take to send its response headers (GATEWAY_UPSTREAM_TIMEOUT): then 504. */
  timeoutMs: number;
  /** Largest body read from the merchant (413 beyond). */
  bodyLimitBytes: number;
  /** Mutual TLS to the service (an https url): the gateway's certificate and key, the internal CA. */
  tls?: InternalTlsOptions | undefined;
}

export interface InternalTlsOptions {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/** Proxies merchant requests to a service over HTTP with an internal JWT, on a keep-alive pool. */
export class HttpUpstream implements Upstream {
  private readonly pool: Pool;

  constructor(private readonly options: HttpUpstreamOptions) {
    this.pool = new Pool(new URL(options.url).origin, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1, ...(options.tls ? { connect: { ...options.tls } } : {}) });
  }

  async send(req: Request, res: Response, call: UpstreamCall): Promise<void> {
    const body = await readRawBody(req, this.options.bodyLimitBytes);
    const headers = upstreamRequestHeaders(req, call, this.options.signer);
    if (body) headers['content-length'] = String(body.length);

    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await this.pool.request({
        method: req.method as 'GET',
        path: call.path,
        headers,
        body: body && body.length > 0 ? body : null,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    } catch (error) {
      this.options.logger.warn({ err: error, service: call.service, request_id: requestIdOf(req) }, 'upstream request failed');
      if (error instanceof undiciErrors.HeadersTimeoutError) throw new UpstreamTimeoutError(call.service);
      throw serviceUnavailable(call.service);
    }

    res.status(upstream.statusCode);
    copyResponseHeaders(upstream.headers, res);
    try {
      await pipeline(upstream.body, res);
    } catch (error) {
      // The client went away or the upstream broke mid-body: nothing more can be sent.
      this.options.logger.warn({ err: error, service: call.service, request_id: requestIdOf(req) }, 'response stream interrupted');
      res.destroy();
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The dispatcher of the readiness checks when the services are reached over mutual TLS. */
export function healthCheckAgent(tls: InternalTlsOptions): Agent {
  return new Agent({ connect: { ...tls } });
}

/** Resolves when the service at `url` answers 200 on /health within `timeoutMs` (the gateway's readiness). */
export async function checkHealth(url: string, dispatcher?: Dispatcher, timeoutMs = 2_000): Promise<void> {
  const response = await request(new URL('/health', url), { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...(dispatcher ? { dispatcher } : {}) });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`${url}/health answered ${response.statusCode}`);
}

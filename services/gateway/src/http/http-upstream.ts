import type { Request, Response } from 'express';
import { Agent, Pool, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { requestIdOf } from '@vaultline/http';
import {
  UpstreamTimeoutError,
  relayResponse,
  serviceUnavailable,
  upstreamRequestHeaders,
  type Upstream,
  type UpstreamCall,
  type UpstreamResponse,
} from './upstream';
import { readRawBody } from './read-body';

export interface HttpUpstreamOptions {
  /** The service's base URL (its loopback port in the embedded and local profiles). */
  url: string;
  signer: InternalTokenSigner;
  logger: Logger;
  /** How long the service may take to send its response headers (GATEWAY_UPSTREAM_TIMEOUT): then 504. */
  timeoutMs: number;
  /** How long refused connections are tried again (the service restarting); 0 or absent: not at all. */
  connectRetryMs?: number | undefined;
  /** Mutual TLS to the service (an https url): the gateway's certificate and key, the internal CA. */
  tls?: InternalTlsOptions | undefined;
  /** The largest body sent on (the edge's limit): more is refused with 413 before anything is sent. */
  bodyLimitBytes: number;
}

export interface InternalTlsOptions {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

const CONNECT_RETRY_STEP_MS = 100;

function isConnectionRefused(error: unknown): boolean {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code === 'ECONNREFUSED' || cause?.code === 'ECONNREFUSED';
}

/**
 * The service closed or reset a kept-alive connection just as this request went out on it, before answering:
 * what a draining service does to its idle connections (HTTP/1.1 cannot tell the client in time; over mutual
 * TLS it reads as ECONNRESET). Sent again once on a new connection. A service killed mid-request looks the
 * same: the services' own request records (Idempotency-Key) answer such a repeat with the first result.
 */
function isClosedBeforeAnswer(error: unknown): boolean {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  if (code === 'ECONNRESET' || cause?.code === 'ECONNRESET') return true;
  return error instanceof undiciErrors.SocketError && /other side closed/i.test(error.message);
}

/**
 * A service reached over HTTP (the local and Kubernetes profiles, and a service on a worker thread of the
 * embedded profile): the request with the body the edge read and an internal JWT of the call's claims, on
 * a keep-alive pool; the service's answer is relayed as it streams in. No answer headers within
 * GATEWAY_UPSTREAM_TIMEOUT: 504 upstream_timeout (the service may still be working).
 */
export class HttpUpstream implements Upstream {
  private readonly pool: Pool;

  constructor(private readonly options: HttpUpstreamOptions) {
    this.pool = new Pool(new URL(options.url).origin, {
      connections: 64,
      keepAliveTimeout: 30_000,
      pipelining: 1,
      ...(options.tls ? { connect: { ...options.tls } } : {}),
    });
  }

  async serve(req: Request, res: Response, call: UpstreamCall): Promise<void> {
    const body = await readRawBody(req, this.options.bodyLimitBytes);
    const response = await this.send(req, body, call);
    await relayResponse(response, res, this.options.logger, call.service);
  }

  /** Sends the merchant's request as `call` says, with the body the edge read; resolves once the service's answer has its head. */
  async send(req: Request, body: Buffer | null, call: UpstreamCall): Promise<UpstreamResponse> {
    const headers = upstreamRequestHeaders(req, body, call, this.options.signer);

    let upstream: Dispatcher.ResponseData;
    const retryUntil = Date.now() + (this.options.connectRetryMs ?? 0);
    let resentAfterClose = false;
    try {
      for (;;) {
        try {
          upstream = await this.pool.request({
            method: req.method as 'GET',
            path: call.path,
            headers,
            body: body && body.length > 0 ? body : null,
            headersTimeout: this.options.timeoutMs,
            bodyTimeout: this.options.timeoutMs,
          });
          break;
        } catch (error) {
          // Refused: nothing listens (the service is restarting), so the request was never sent: safe to send again
          // (while the merchant is still connected; req itself ends once its body was read).
          if (isClosedBeforeAnswer(error) && !resentAfterClose && !req.socket.destroyed) {
            resentAfterClose = true;
            continue;
          }
          if (!isConnectionRefused(error) || Date.now() + CONNECT_RETRY_STEP_MS > retryUntil || req.socket.destroyed) throw error;
          await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_STEP_MS));
        }
      }
    } catch (error) {
      this.options.logger.warn({ err: error, service: call.service, request_id: requestIdOf(req) }, 'upstream request failed');
      if (error instanceof undiciErrors.HeadersTimeoutError) throw new UpstreamTimeoutError(call.service);
      throw serviceUnavailable(call.service);
    }

    return { status: upstream.statusCode, headers: upstream.headers, body: upstream.body };
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

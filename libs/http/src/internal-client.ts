import { Pool } from 'undici';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { UnavailableError } from '@vaultline/core';
import type { InternalTokenSigner } from '@vaultline/auth';

export interface InternalRequest {
  method: string;
  path: string;
  merchantId: string;
  scopes: string[];
  requestId: string;
  body?: unknown;
  /** Default 10 s, for the headers and for the body each. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** The merchant key's mode to sign into the token, when the callee checks it (the forwarder's test/live hosts). */
  mode?: 'test' | 'live';
}

const tracer = trace.getTracer('@vaultline/http');

/**
 * Calls another service with an internal JWT (reused while fresh) and the request id in
 * X-Request-Id, over a keep-alive pool.
 * Network failures and timeouts become UnavailableError (503, retryable); HTTP errors are
 * returned as they are so that the caller decides.
 */
export class InternalClient {
  private readonly pool: Pool;
  private readonly signer: InternalTokenSigner;
  /** The service called: the audience of the internal JWTs sent. */
  readonly audience: string;

  /** `tls`: mutual TLS (an https baseUrl) — this service's certificate and key, and the internal CA, the only one trusted. */
  constructor(options: {
    signer: InternalTokenSigner;
    audience: string;
    baseUrl: string;
    connections?: number;
    tls?: { ca: Buffer; cert: Buffer; key: Buffer } | undefined;
  }) {
    this.signer = options.signer;
    this.audience = options.audience;
    this.pool = new Pool(new URL(options.baseUrl).origin, {
      connections: options.connections ?? 32,
      keepAliveTimeout: 30_000,
      ...(options.tls ? { connect: { ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key } } : {}),
    });
  }

  async request<T>(options: InternalRequest): Promise<{ status: number; body: T }> {
    const token = this.signer.sign(this.audience, { merchantId: options.merchantId, scopes: options.scopes, ...(options.mode ? { mode: options.mode } : {}) });
    const headers: Record<string, string> = {
      ...options.headers,
      authorization: `Bearer ${token}`,
      'x-request-id': options.requestId,
      accept: 'application/json',
    };
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const timeout = options.timeoutMs ?? 10_000;

    return tracer.startActiveSpan(`${options.method} ${this.audience}`, { kind: SpanKind.CLIENT }, async (span) => {
      propagation.inject(context.active(), headers);
      try {
        const response = await this.pool.request({
          method: options.method as 'GET',
          path: options.path,
          headers,
          body: payload,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
        const text = await response.body.text();
        span.setAttribute('http.response.status_code', response.statusCode);
        const contentType = String(response.headers['content-type'] ?? '');
        const body = (text.length > 0 && contentType.includes('json') ? JSON.parse(text) : text) as T;
        return { status: response.statusCode, body };
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (error instanceof SyntaxError) throw new UnavailableError(`The ${this.audience} service answered with a malformed body.`);
        throw new UnavailableError(`The ${this.audience} service is unavailable.`);
      } finally {
        span.end();
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

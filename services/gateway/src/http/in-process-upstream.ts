import type { Express, Request, Response } from 'express';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { freezeMetricsRoute, problemResponse } from '@vaultline/http';
import { AppError } from '@vaultline/core';
import { upstreamRequestHeaders, type Upstream, type UpstreamCall } from './upstream';

const tracer = trace.getTracer('@vaultline/gateway');

export interface InProcessUpstreamOptions {
  /** The service's express app, on the gateway's own thread. */
  app: Express;
  signer: InternalTokenSigner;
  logger: Logger;
  /** Problems' `type` links to {publicBaseUrl}/docs/errors. */
  publicBaseUrl: string;
}

/**
 * The embedded profile's shortcut to a service on the gateway's own thread: the merchant's request is
 * handed to the service's express app as it is — no loopback connection, no second HTTP parse — with
 * the headers HttpUpstream would send (merchant credentials stripped from `headers` and `rawHeaders`,
 * the internal JWT added, which the service still verifies) and the body unread, so the service's own
 * parser reads it with its own limit.
 */
export class InProcessUpstream implements Upstream {
  private readonly handle: (req: Request, res: Response, done: (error?: unknown) => void) => void;

  constructor(private readonly options: InProcessUpstreamOptions) {
    // An express app's `handle` (what calling the app does) is not in its public typings.
    this.handle = (options.app as unknown as { handle: InProcessUpstream['handle'] }).handle.bind(options.app);
  }

  async send(req: Request, res: Response, call: UpstreamCall): Promise<void> {
    // The service's app routes this request again: the gateway's route is the one it has now.
    freezeMetricsRoute(req, res);
    const headers = upstreamRequestHeaders(req, call, this.options.signer);
    // The body is still unread: the service's parser needs its framing headers.
    for (const framing of ['content-length', 'transfer-encoding'] as const) {
      const value = req.headers[framing];
      if (typeof value === 'string') headers[framing] = value;
    }
    req.headers = headers;
    // Nothing downstream may see the merchant's original headers (X-API-Key…) by another door.
    req.rawHeaders = Object.entries(headers).flat();
    req.url = call.path;
    req.originalUrl = call.path;
    req.baseUrl = '';
    // No HTTP server of the service sees this request, so no instrumentation opens its server span: this
    // one stands for it, and the service's work (its spans, the trace context of its events) hangs below.
    const span = tracer.startSpan(`${req.method} ${call.service}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'vaultline.service': call.service, 'vaultline.in_process': true },
    });
    const end = () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', () => span.isRecording() && end());
    context.with(trace.setSpan(context.active(), span), () => this.handle(req, res, (error?: unknown) => this.unhandled(req, res, call.service, error)));
  }

  async close(): Promise<void> {}

  /** The service's own error handler answers every error; this runs only if a request falls through it. */
  private unhandled(req: Request, res: Response, service: string, error: unknown): void {
    this.options.logger.error({ err: error, service, path: req.path }, 'request fell through the in-process service');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    problemResponse(res, new AppError('internal_error', 500, 'The request could not be handled.'), this.options.publicBaseUrl);
  }
}

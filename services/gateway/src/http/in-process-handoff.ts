import type { Request, RequestHandler, Response } from 'express';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { problemResponse } from '@vaultline/http';
import { AppError } from '@vaultline/core';
import type { UpstreamService } from '../domain/routing';
import { upstreamRequestHeaders, type ProxyCall } from './upstream-proxy';

/** A service's express app, callable with a request it did not accept itself. */
export interface InProcessApp {
  handle(req: Request, res: Response, done: (error?: unknown) => void): void;
}

/**
 * The embedded profile's shortcut to the services behind the gateway: when a service runs in this
 * process, the merchant's request is handed to its express app directly instead of being copied
 * onto a loopback connection — no second HTTP parse, no socket writes, no proxy client.
 *
 * The service sees exactly what it would over HTTP: the same path, the headers `UpstreamProxy`
 * would send (API key and client-set identity headers stripped, the internal JWT added, which the
 * service still verifies), and the body unread, so the service's own parser reads it with its own
 * limit. The gateway never reads the body on this path.
 */
export class InProcessHandoff {
  constructor(
    private readonly deps: { apps: Partial<Record<UpstreamService, InProcessApp>>; signer: InternalTokenSigner; logger: Logger },
  ) {}

  has(service: UpstreamService): boolean {
    return this.deps.apps[service] !== undefined;
  }

  handOff(req: Request, res: Response, call: Omit<ProxyCall, 'body'>): void {
    const app = this.deps.apps[call.service];
    if (!app) throw new Error(`${call.service} does not run in this process`);
    const headers: Record<string, string> = upstreamRequestHeaders(req, call, this.deps.signer);
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
    app.handle(req, res, (error?: unknown) => this.unhandled(req, res, call.service, error));
  }

  /** The service's own error handler answers every error; this runs only if a request falls through it. */
  private unhandled(req: Request, res: Response, service: UpstreamService, error: unknown): void {
    this.deps.logger.error({ err: error, service, path: req.path }, 'request fell through the in-process service');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    problemResponse(res, new AppError('internal_error', 500, 'The request could not be handled.'));
  }
}

/** Adapts an express app (whose `handle` is not in its public typings) to InProcessApp. */
export function inProcessAppOf(app: RequestHandler): InProcessApp {
  const handle = (app as unknown as { handle?: InProcessApp['handle'] }).handle;
  if (typeof handle !== 'function') throw new Error('not an express app');
  return { handle: handle.bind(app) };
}

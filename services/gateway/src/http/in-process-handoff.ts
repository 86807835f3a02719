import type { Request, RequestHandler, Response } from 'express';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { problemResponse, requestIdOf } from '@vaultline/http';
import { type RelayedResponse, type ServiceRequestChannel } from '@vaultline/runtime';
import { AppError, RelayTimeoutError } from '@vaultline/core';
import type { UpstreamService } from '../domain/routing';
import { UpstreamTimeoutError, copyResponseHeaders, serviceUnavailable, upstreamRequestHeaders, upstreamRequestHeadersWithBody, type ProxyCall } from './upstream-proxy';
import { readRawBody } from './read-body';

/** A service's express app, callable with a request it did not accept itself. */
export interface InProcessApp {
  handle(req: Request, res: Response, done: (error?: unknown) => void): void;
}

export interface InProcessHandoffDeps {
  /** Services on the gateway's own thread: their express app takes the merchant's request itself. */
  apps: Partial<Record<UpstreamService, InProcessApp>>;
  /** Services on a worker thread of this process: the request is relayed to them by message. */
  channels?: Partial<Record<UpstreamService, ServiceRequestChannel>>;
  signer: InternalTokenSigner;
  logger: Logger;
  /** Read limit for bodies relayed to a thread (the service applies its own limit as well). */
  bodyLimitBytes: number;
  /** How long a relayed request may take, as for a proxied one. */
  timeoutMs: number;
}

/**
 * The embedded profile's shortcut to the services behind the gateway. Whether a service runs on this
 * thread or on a worker thread of this process, the merchant's request reaches it without a loopback
 * connection — no second HTTP parse, no socket writes, no proxy client:
 * - a service on this thread gets the request handed to its express app directly, the body unread, so
 *   its own parser reads it with its own limit;
 * - a service on a worker thread gets the request relayed by message (the body read here, at most the
 *   gateway's limit), and its express app answers there.
 *
 * The service sees exactly what it would over HTTP: the same path, the headers `UpstreamProxy`
 * would send (API key and client-set identity headers stripped, the internal JWT added, which the
 * service still verifies).
 */
export class InProcessHandoff {
  constructor(private readonly deps: InProcessHandoffDeps) {}

  has(service: UpstreamService): boolean {
    return this.deps.apps[service] !== undefined || this.deps.channels?.[service] !== undefined;
  }

  async handOff(req: Request, res: Response, call: Omit<ProxyCall, 'body'>): Promise<void> {
    const channel = this.deps.channels?.[call.service];
    if (channel) return this.relay(channel, req, res, call);
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

  private async relay(channel: ServiceRequestChannel, req: Request, res: Response, call: Omit<ProxyCall, 'body'>): Promise<void> {
    const body = await readRawBody(req, this.deps.bodyLimitBytes);
    const headers = upstreamRequestHeadersWithBody(req, call, this.deps.signer, body);
    let answer: RelayedResponse;
    try {
      answer = await channel.relay({ method: req.method, url: call.path, headers, body }, this.deps.timeoutMs);
    } catch (error) {
      if (error instanceof RelayTimeoutError) throw new UpstreamTimeoutError(call.service);
      this.deps.logger.warn({ err: error, service: call.service, request_id: requestIdOf(req) }, 'relayed request failed');
      throw serviceUnavailable(call.service);
    }
    res.status(answer.status);
    copyResponseHeaders(answer.headers, res);
    res.end(answer.body);
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

import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppError, BadRequestError, UnavailableError } from '@vaultline/core';
import type { InternalTokenVerifier } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { problemResponse } from './problem';
import { internalAuthMiddleware, requestIdMiddleware } from './request-context';
import { bodyParsers, contentTypeGuard, translateBodyError } from './body-parsing';
import { accessLog } from './access-log';
import { httpMetrics } from './http-metrics';
import type { ServiceMetrics } from '@vaultline/metrics';

export interface ServiceHttpOptions {
  /** The service's name, as in logs and in the audience of its internal JWTs. */
  service: string;
  /** The gateway as seen from outside (runtime.publicBaseUrl): problems' `type` links to its /docs/errors page. */
  publicBaseUrl: string;
  verifier: InternalTokenVerifier;
  logger: Logger;
  /** Throws when the service cannot serve (store down…); /ready then answers 503. */
  readiness?: () => Promise<void>;
  /** Default '256kb'. */
  bodyLimit?: string;
  /**
   * Routes (express paths) that take larger bodies than `bodyLimit`, with their own limit: a route that
   * receives files in its JSON (dispute evidence) says so here, every other route keeps the default.
   */
  largerBodies?: Record<string, string>;
  /** Paths whose body arrives unparsed as a Buffer in req.body (e.g. /forward, which must keep the exact bytes). */
  rawBodyPaths?: string[];
  routes: (router: express.Router) => void;
  /** RED metrics per route (runtime.metrics); none when absent. */
  metrics?: ServiceMetrics;
}

/**
 * The express app every internal service serves: request ids, health and readiness,
 * internal JWT on every other route, body parsing with a limit, problem+json errors.
 */
export function createServiceHttp(options: ServiceHttpOptions): express.Express {
  const limit = options.bodyLimit ?? '256kb';
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.metrics) app.use(httpMetrics(options.metrics));
  app.use(requestIdMiddleware());
  app.use(accessLog(options.logger, 'debug'));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    try {
      await options.readiness?.();
    } catch (error) {
      options.logger.warn({ err: error }, 'readiness check failed');
      throw error instanceof AppError && error.status === 503 ? error : new UnavailableError(`The ${options.service} service is not ready.`, 'not_ready');
    }
    res.json({ status: 'ready' });
  });
  app.use(internalAuthMiddleware(options.verifier));
  app.use(contentTypeGuard());
  for (const path of options.rawBodyPaths ?? []) app.use(path, express.raw({ limit, type: () => true }));
  for (const [path, larger] of Object.entries(options.largerBodies ?? {})) {
    // Parsed here with the route's own limit (the default parsers then pass the parsed body by); a body too large for it names that limit.
    app.use(path, ...bodyParsers(larger), (error: unknown, _req: Request, _res: Response, next: NextFunction) => next(translateBodyError(error, larger)));
  }
  app.use(...bodyParsers(limit));
  const router = express.Router();
  options.routes(router);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler(options.logger, options.publicBaseUrl, limit));
  return app;
}

export function notFoundHandler() {
  return (req: Request) => {
    throw new RouteNotFoundError(req.method, req.path);
  };
}

export class RouteNotFoundError extends AppError {
  constructor(method: string, path: string) {
    super('route_not_found', 404, `No route for ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}.`);
  }
}

/**
 * Last middleware: AppError → its problem; body-parser errors → 400/413/415; the rest → logged 500.
 *
 * Every refused access is audited: a 401 or 403 (and the codes in `auditedCodes`) is logged at warn as
 * "access refused" with the request id, route, code and — when the error carries them — the precise
 * reason and key id the answer does not show. This log line is the audit trail of failed access
 * attempts (PCI DSS 10.2.1.4): it goes wherever the logs are shipped. It is not written to a database:
 * a refusal comes from a caller nobody has authenticated, and a store write per refused request would
 * let anyone fill the disk.
 */
export function errorHandler(logger: Logger, publicBaseUrl: string, limit = '256kb', auditedCodes: readonly string[] = []) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const translated = translateRoutingError(translateBodyError(error, limit));
    if (!(translated instanceof AppError) || translated.status >= 500) {
      logger.error({ err: translated, request_id: res.locals.requestId, method: req.method, path: req.path }, 'request failed');
    } else if (translated.status === 401 || translated.status === 403 || auditedCodes.includes(translated.code)) {
      logger.warn({ request_id: res.locals.requestId, method: req.method, path: req.path.slice(0, 300), status: translated.status, code: translated.code, ...detailsOf(translated) }, 'access refused');
    }
    problemResponse(res, translated, publicBaseUrl);
  };
}

/** What a refusal knows and does not answer: why (InvalidInternalToken, InvalidApiKey) and which key. */
function detailsOf(error: AppError): { reason?: string; key_id?: string } {
  const { reason, keyId } = error as AppError & { reason?: unknown; keyId?: unknown };
  return { ...(typeof reason === 'string' ? { reason } : {}), ...(typeof keyId === 'string' ? { key_id: keyId } : {}) };
}

/**
 * The router decodes path parameters with decodeURIComponent: a segment that is not valid
 * percent-encoding (%C0%AF, %zz, a lone %) throws a URIError it marks 400 but does not expose. It is
 * the client's mistake, never a 500.
 */
function translateRoutingError(error: unknown): unknown {
  if (error instanceof URIError && (error as URIError & { status?: unknown }).status === 400) {
    return new BadRequestError('A path segment is not valid percent-encoding.', 'malformed_path');
  }
  return error;
}

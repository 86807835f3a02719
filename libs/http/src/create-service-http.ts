import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { getRPCMetadata } from '@opentelemetry/core';
import { AppError, BadRequestError, UnavailableError } from '@vaultline/core';
import type { InternalTokenVerifier } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { PROBLEM_CONTENT_TYPE, problemBody, problemResponse } from './problem';
import { enterRequestContext, internalAuthMiddleware, requestIdMiddleware, type RequestContext } from './request-context';
import { bodyParsers, contentTypeGuard, translateBodyError } from './body-parsing';
import { accessLog } from './access-log';
import { httpMetrics } from './http-metrics';
import { idempotencyLayer, useIdempotencyLayer, type IdempotencySettings } from './answer';
import type { RenderedAnswer } from './idempotency';
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
  /** Idempotency-Key on the merchant POSTs whose handlers return their answer (answers()); none when absent. */
  idempotency?: IdempotencySettings | undefined;
}

/**
 * A service's routes, in whichever process and transport runs them: the router (body parsing with the
 * service's limit, Idempotency-Key, the routes, problem+json answers), entered with a request context.
 */
export interface ServiceRoutes {
  readonly service: string;
  /**
   * Serves a request whose caller established its context in this process (the embedded profile's gateway,
   * after its policy chain): no internal JWT, no second parse of anything but the body, which the
   * service's own parser reads from the merchant's request. `next` gets what the routes leave unanswered.
   */
  serve(req: Request, res: Response, given: RequestContext, next: NextFunction): void;
}

export interface ServiceHttp {
  /** The transport shell: request ids, health and readiness, the internal JWT → the request context, then the routes. */
  http: express.Express;
  routes: ServiceRoutes;
}

const tracer = trace.getTracer('@vaultline/http');

/**
 * The HTTP of every internal service: one router of its routes, and the two ways in. Over HTTP (the
 * local and Kubernetes profiles, and a service on a worker thread of the embedded profile) a transport
 * shell verifies the internal JWT and makes the request context of it; in the embedded profile the
 * gateway hands its request, with the context its policy chain established, to `routes.serve`. The
 * routes read the context (authOf, scopeOfRequest, clientAddressOf, requestIdOf) either way.
 */
export function serviceHttp(options: ServiceHttpOptions): ServiceHttp {
  const limit = options.bodyLimit ?? '256kb';
  const router = express.Router();
  if (options.idempotency) router.use(useIdempotencyLayer(idempotencyLayer(options.idempotency, renderProblem(options.publicBaseUrl, limit), options.logger)));
  router.use(contentTypeGuard());
  for (const path of options.rawBodyPaths ?? []) router.use(path, express.raw({ limit, type: () => true }));
  for (const [path, larger] of Object.entries(options.largerBodies ?? {})) {
    // Parsed here with the route's own limit (the default parsers then pass the parsed body by); a body too large for it names that limit.
    router.use(path, ...bodyParsers(larger), (error: unknown, _req: Request, _res: Response, next: NextFunction) => next(translateBodyError(error, larger)));
  }
  router.use(...bodyParsers(limit));
  const routes = express.Router();
  options.routes(routes);
  router.use(routes);
  router.use(notFoundHandler());
  router.use(errorHandler(options.logger, options.publicBaseUrl, limit));

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
  app.use(router);
  app.use(errorHandler(options.logger, options.publicBaseUrl, limit));

  // In this process: the service's RED series by its own route patterns, and a span of its own under the caller's.
  const metrics = options.metrics ? httpMetrics(options.metrics, { patternsOnly: true }) : null;
  const enter = metrics ? (req: Request, res: Response, next: NextFunction) => metrics(req, res, () => router(req, res, next)) : router;
  return {
    http: app,
    routes: {
      service: options.service,
      serve(req, res, given, next) {
        enterRequestContext(req, given);
        // A span only where a server span records one (telemetry on): nothing to pay for otherwise.
        if (!getRPCMetadata(context.active())?.span) return enter(req, res, next);
        const span = tracer.startSpan(`${options.service} ${req.method}`, { kind: SpanKind.INTERNAL, attributes: { 'vaultline.service': options.service } });
        res.once('close', () => {
          const pattern = (req.route as { path?: unknown } | undefined)?.path;
          if (typeof pattern === 'string') span.updateName(`${options.service} ${req.method} ${pattern}`);
          span.setAttribute('http.response.status_code', res.statusCode);
          span.end();
        });
        context.with(trace.setSpan(context.active(), span), () => enter(req, res, next));
      },
    },
  };
}

/** The transport shell alone (tests that stand a service up over HTTP). */
export function createServiceHttp(options: ServiceHttpOptions): express.Express {
  return serviceHttp(options).http;
}

/** The problem the error handler sends for `error`, rendered as the Idempotency-Key layer keeps it. */
function renderProblem(publicBaseUrl: string, limit: string): (error: unknown, res: Response) => RenderedAnswer {
  return (error, res) => {
    const requestId = typeof res.locals.requestId === 'string' ? res.locals.requestId : '';
    const body = problemBody(problemOf(error, limit), requestId, publicBaseUrl);
    return { status: body.status, headers: { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8` }, body: Buffer.from(JSON.stringify(body)) };
  };
}

/** The error a request failed with, as its answer names it: body-parser and routing failures become the client's errors. */
function problemOf(error: unknown, limit: string): unknown {
  return translateRoutingError(translateBodyError(error, limit));
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
    const translated = problemOf(error, limit);
    if (!(translated instanceof AppError) || translated.status >= 500) {
      logger.error({ err: translated, request_id: res.locals.requestId, method: req.method, path: req.path }, 'request failed');
    } else if (translated.status === 401 || translated.status === 403 || auditedCodes.includes(translated.code)) {
      logger.warn(
        {
          request_id: res.locals.requestId,
          method: req.method,
          path: req.path.slice(0, 300),
          status: translated.status,
          code: translated.code,
          ...detailsOf(translated),
        },
        'access refused',
      );
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

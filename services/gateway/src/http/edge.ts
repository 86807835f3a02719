import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppError, ForbiddenError } from '@vaultline/core';
import { PUBLIC_MERCHANT_ID, SCOPES, type ApiKeyMode } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { JSON_BODY_TYPES, RouteNotFoundError, SUPPORTED_BODY_TYPES, TEST_CLOCK_HEADER, accessLog, assertBodyType, errorHandler, httpMetrics, requestIdMiddleware, setMetricsRoute, tagServerSpan } from '@vaultline/http';
import type { ServiceMetrics } from '@vaultline/metrics';
import type { ApiKeys } from '../domain/api-keys';
import { isSafePath, resolveRoute, type UpstreamService } from '../domain/routing';
import { relayResponse, type Upstream } from './upstream';
import { assertDeclaredLength, readRawBody } from './read-body';
import type { IdempotencyGuard } from './idempotency.middleware';
import { rememberClientAddress, type TrustProxy } from './client-address';
import { RateLimited, type TakeRequestToken } from '../domain/rate-limit';
import type { ResolvedKey } from '../domain/merchant';

export interface EdgeDeps {
  logger: Logger;
  /** Send Strict-Transport-Security (the edge is reached over https). */
  hsts: boolean;
  apiKeys: ApiKeys;
  /** How each service is reached (HTTP, its loopback port in the embedded profile). */
  upstreams: Record<UpstreamService, Upstream>;
  /** Idempotency-Key on merchant POSTs, around whichever transport serves the route. */
  idempotency: IdempotencyGuard;
  /** Takes a request from the API key's token bucket. */
  rateLimit: TakeRequestToken;
  bodyLimitBytes: number;
  /** Who may name the client in X-Forwarded-For (TRUST_PROXY); the services get the client's address. */
  trustProxy: TrustProxy;
  admin: express.Router;
  readiness: () => Promise<void>;
  /** The index at /, the OpenAPI documents, the reference, guides and errors pages (docs.routes.ts): no key needed. */
  docs: express.Router;
  /** The gateway as seen from outside: problems' `type` links to its /docs/errors page. */
  publicBaseUrl: string;
  /** RED per route: merchant routes by their prefix (/tokens, /payments…), the admin API by its express patterns. */
  metrics: ServiceMetrics;
}

/**
 * The merchant edge. Every request gets a request id; public routes go to the vault as
 * merchant __public__; every other route needs X-API-Key, which resolves the merchant and
 * scopes signed into the internal JWT. Bodies are never parsed here: they are read as raw bytes (up
 * to the limit) and sent on as they came.
 */
export function createEdgeApp(deps: EdgeDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  if (deps.hsts) {
    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      next();
    });
  }

  app.use(httpMetrics(deps.metrics));
  app.use(requestIdMiddleware());
  app.use(rememberClientAddress(deps.trustProxy));
  app.use(accessLog(deps.logger, 'info'));
  // The gateway's internal API has a listener of its own that is never public (ServiceApp.internalHttp).
  app.use('/internal', (req: Request) => {
    throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    await deps.readiness();
    res.json({ status: 'ready' });
  });
  app.use(deps.docs);

  app.use('/admin', deps.admin);
  app.use(merchantEdge(deps));
  // A live key with the test clock is a refusal too: audited like a 401/403.
  app.use(errorHandler(deps.logger, deps.publicBaseUrl, `${deps.bodyLimitBytes} bytes`, ['test_clock_not_allowed']));
  return app;
}

function merchantEdge(deps: EdgeDeps) {
  return async (req: Request, res: Response, _next: NextFunction) => {
    assertDeclaredLength(req, deps.bodyLimitBytes);
    const route = resolveRoute(req.path);
    if (route) setMetricsRoute(res, `${route.prefix}*`);
    const notFound = () => new RouteNotFoundError(req.method, req.path);

    let merchantId = PUBLIC_MERCHANT_ID;
    let scopes: string[] = [SCOPES.public];
    let mode: ApiKeyMode | undefined;
    if (route?.access !== 'public') {
      // A refusal (InvalidApiKey with its reason and key id) is logged at warn by the error handler.
      const key = await deps.apiKeys.authenticate(req.get('x-api-key'));
      if (key.mode === 'live' && req.get(TEST_CLOCK_HEADER) !== undefined) throw new TestClockNotAllowed();
      await limitRate(deps.rateLimit, key, res);
      merchantId = key.merchantId;
      scopes = key.scopes;
      mode = key.mode;
      tagServerSpan('vaultline.merchant_id', merchantId);
      if (!route) throw notFound();
      if (!scopes.includes(SCOPES.merchant) && !(route.prefix === '/cde-import' && req.method === 'POST' && scopes.includes(SCOPES.cdeImport))) {
        throw new ForbiddenError('This API key may only call POST /cde-import.', 'insufficient_scope');
      }
    }
    if (!route || !isSafePath(req.path)) throw notFound();
    // A form sent to a JSON route would parse as one meaningless key and answer "amount is required": 415 names the type instead.
    assertBodyType(req, route.bodies === 'json-or-form' ? SUPPORTED_BODY_TYPES : JSON_BODY_TYPES);
    const call = { service: route.service, path: req.originalUrl, merchantId, scopes, mode };
    const owner = route.access === 'merchant' && mode ? { merchantId, mode } : null;
    const body = await readRawBody(req, deps.bodyLimitBytes);
    const response = await deps.idempotency(req, body, owner, () => deps.upstreams[route.service].send(req, body, call));
    await relayResponse(response, res, deps.logger, route.service);
  };
}

/**
 * Every authenticated answer tells the client where its bucket stands, in the header fields of the IETF
 * draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-06: RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset in seconds); a refusal adds Retry-After (RFC 9110).
 */
async function limitRate(take: TakeRequestToken, key: ResolvedKey, res: Response): Promise<void> {
  const state = await take(key);
  res.setHeader('RateLimit-Limit', String(state.limit));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.resetSeconds));
  if (state.allowed) return;
  res.setHeader('Retry-After', String(state.retryAfterSeconds));
  throw new RateLimited(state.retryAfterSeconds);
}

/** X-Test-Now (the test clock) is for test-mode keys only; a live key with it is refused on every route. */
export class TestClockNotAllowed extends AppError {
  constructor() {
    super('test_clock_not_allowed', 422, 'X-Test-Now is accepted with test-mode API keys only (sk_test_…).', { field: 'X-Test-Now' });
  }
}

import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { AppError, ForbiddenError } from '@vaultline/core';
import { PUBLIC_MERCHANT_ID, SCOPES, type ApiKeyMode } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import {
  JSON_BODY_TYPES,
  RouteNotFoundError,
  SUPPORTED_BODY_TYPES,
  TEST_CLOCK_HEADER,
  accessLog,
  assertBodyType,
  errorHandler,
  httpMetrics,
  requestIdMiddleware,
  setMetricsRoute,
  tagServerSpan,
} from '@vaultline/http';
import type { ServiceMetrics } from '@vaultline/metrics';
import type { ApiKeys } from '../domain/api-keys';
import { isSafePath, resolveRoute, type UpstreamService } from '../domain/routing';
import type { Upstream } from './upstream';
import { assertDeclaredLength } from './read-body';
import { rememberClientAddress, type TrustProxy } from './client-address';
import { RateLimited, type TakeRequestToken } from '../domain/rate-limit';
import type { ResolvedKey } from '../domain/merchant';
import type { AdminAudit } from '../domain/admin-audit';
import { dashboardKeyMay } from '../domain/dashboard-access';
import { auditOnceAnswered } from './audit-on-answer';
import { sessionActor, type SessionOfRequest } from './dashboard-session';
import { merchantApiKeyRoutes } from './merchant-api-keys.routes';

export interface EdgeDeps {
  logger: Logger;
  /** Send Strict-Transport-Security (the edge is reached over https). */
  hsts: boolean;
  apiKeys: ApiKeys;
  /** How each service is reached: its routes mounted here (the embedded profile, a service on this thread), or HTTP. */
  upstreams: Record<UpstreamService, Upstream>;
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
  /** The dashboard session of a request without an API key (cookie authentication). */
  sessionOf: SessionOfRequest;
  /** /dashboard/session (sign-in, who am I, the mode switch, sign-out). */
  dashboardSession: express.Router;
  /** The dashboard's built files at /dashboard. */
  dashboardApp: express.RequestHandler;
  /** Where changes made through a dashboard session are written. */
  audit: AdminAudit;
  /** Refuses a merchant read's query parameter its route does not declare (422 unknown_filter; known-filters.ts). */
  knownFilters: (req: Request) => void;
}

/**
 * The merchant edge. Every request gets a request id; public routes go to their service as merchant
 * __public__; every other route needs X-API-Key (or a dashboard session), which resolves the merchant,
 * mode, scopes and key id of the request context the service gets (signed into the internal JWT when the
 * service is reached over HTTP). Bodies are never parsed here: the service parses them, or they are read
 * as raw bytes (up to the limit) and sent on as they came.
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

  app.use('/dashboard/session', deps.dashboardSession);
  app.use('/dashboard', deps.dashboardApp);
  app.use('/admin', deps.admin);
  app.use(
    '/api-keys',
    (_req: Request, res: Response, next: NextFunction) => {
      setMetricsRoute(res, '/api-keys*');
      next();
    },
    merchantApiKeyRoutes({
      apiKeys: deps.apiKeys,
      audit: deps.audit,
      logger: deps.logger,
      authenticate: async (req, res) => {
        const { key } = await authenticateMerchant(deps, req, res, '/api-keys');
        deps.knownFilters(req);
        return key;
      },
    }),
  );
  app.use(merchantEdge(deps));
  // A live key with the test clock is a refusal too: audited like a 401/403.
  app.use(errorHandler(deps.logger, deps.publicBaseUrl, `${deps.bodyLimitBytes} bytes`, ['test_clock_not_allowed']));
  return app;
}

/**
 * The policy chain of a merchant route: the body's declared length, the route, authentication, the rate
 * limit, the scopes, the body's type; then the service that owns the route serves it. Idempotency-Key is
 * the service's (libs/http answers()): it keys the route by its name, not by this path's spelling.
 */
function merchantEdge(deps: EdgeDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    assertDeclaredLength(req, deps.bodyLimitBytes);
    const route = resolveRoute(req.path);
    if (route) setMetricsRoute(res, `${route.prefix}*`);
    const notFound = () => new RouteNotFoundError(req.method, req.path);

    let merchantId = PUBLIC_MERCHANT_ID;
    let scopes: string[] = [SCOPES.public];
    let mode: ApiKeyMode | undefined;
    let keyId: string | undefined;
    let merchantName: string | undefined;
    if (route?.access !== 'public') {
      const { key, scopes: granted } = await authenticateMerchant(deps, req, res, route?.prefix ?? null);
      merchantId = key.merchantId;
      mode = key.mode;
      keyId = key.keyId;
      merchantName = key.merchantName;
      scopes = granted;
    }
    if (!route || !isSafePath(req.path)) throw notFound();
    if (route.access === 'merchant') deps.knownFilters(req);
    // A form sent to a JSON route would parse as one meaningless key and answer "amount is required": 415 names the type instead.
    assertBodyType(req, route.bodies === 'json-or-form' ? SUPPORTED_BODY_TYPES : JSON_BODY_TYPES);
    await deps.upstreams[route.service].serve(req, res, { service: route.service, path: req.originalUrl, merchantId, scopes, mode, keyId, merchantName }, next);
  };
}

/**
 * A merchant request's credential, checked: the key (or dashboard session), the test clock, the rate
 * limit, then whether the key may call the route (`prefix`; null: no such route, 404 after the key was
 * checked) and with which scopes the service is called. A refusal (InvalidApiKey with its reason and
 * key id) is logged at warn by the error handler.
 */
async function authenticateMerchant(deps: EdgeDeps, req: Request, res: Response, prefix: string | null): Promise<{ key: ResolvedKey; scopes: string[] }> {
  const key = await merchantCredential(deps, req, res);
  if (key.mode === 'live' && req.get(TEST_CLOCK_HEADER) !== undefined) throw new TestClockNotAllowed();
  await limitRate(deps.rateLimit, key, res);
  tagServerSpan('vaultline.merchant_id', key.merchantId);
  if (prefix === null) throw new RouteNotFoundError(req.method, req.path);
  return { key, scopes: scopesForRoute(key.scopes, prefix, req) };
}

/**
 * The merchant behind a request: its X-API-Key, or else its dashboard session (the cookie; CSRF checked
 * on a change). A change through a session is written to the audit log with the session's identity.
 */
async function merchantCredential(deps: EdgeDeps, req: Request, res: Response): Promise<ResolvedKey> {
  const apiKey = req.get('x-api-key');
  const session = apiKey === undefined ? await deps.sessionOf(req) : null;
  if (!session) return deps.apiKeys.authenticate(apiKey);
  if (session.principal.kind !== 'merchant') throw new ForbiddenError("An operator's dashboard session reaches the admin API only.", 'insufficient_scope');
  if (!READ_METHODS.has(req.method)) auditOnceAnswered(req, res, deps, () => sessionActor(session));
  return session.principal.key;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The scopes the service is called with, once the key may call the route: a merchant key its own; an
 * import key POST /cde-import only; a dashboard key what dashboard-access.ts allows, as `merchant`.
 */
function scopesForRoute(keyScopes: string[], prefix: string, req: Request): string[] {
  if (keyScopes.includes(SCOPES.merchant)) return keyScopes;
  if (keyScopes.includes(SCOPES.dashboard)) {
    if (!dashboardKeyMay(req.method, req.path))
      throw new ForbiddenError(
        "A dashboard key reads; of the changes it makes only capture, cancel, refund and a webhook delivery's replay.",
        'insufficient_scope',
      );
    return [SCOPES.merchant];
  }
  if (prefix === '/cde-import' && req.method === 'POST' && keyScopes.includes(SCOPES.cdeImport)) return keyScopes;
  throw new ForbiddenError('This API key may only call POST /cde-import.', 'insufficient_scope');
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

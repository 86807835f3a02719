import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { SCOPES, SYSTEM_MERCHANT_ID } from '@vaultline/auth';
import { ForbiddenError, isAppError } from '@vaultline/core';
import type { CounterHandle } from '@vaultline/metrics';
import type { Logger } from '@vaultline/logger';
import {
  JSON_BODY_TYPES,
  RouteNotFoundError,
  assertBodyType,
  bodyParsers,
  contentTypeGuard,
  listResponse,
  parseInput,
  parsePageQuery,
  setMetricsRoute,
} from '@vaultline/http';
import type { ApiKeys } from '../domain/api-keys';
import type { Merchants } from '../domain/merchants';
import type { Operator } from '../domain/operator';
import type { Operators } from '../domain/operators';
import type { AdminAudit } from '../domain/admin-audit';
import { adminKeyActor } from '../domain/admin-audit-entry';
import type { ActiveSession } from '../domain/dashboard-sessions';
import type { CheckServiceHealth } from '../domain/service-health';
import { auditOnceAnswered } from './audit-on-answer';
import { sessionActor, type SessionOfRequest } from './dashboard-session';
import { clientAddressOf } from './client-address';
import { TooManyAdminRefusals, type AdminRefusalLog, type AdminRetryAfter, type CountAdminRefusal } from '../domain/admin-refusals';
import { isSafePath, isUpstreamService, type UpstreamService } from '../domain/routing';
import type { Upstream } from './upstream';
import { assertDeclaredLength } from './read-body';
import { toApiKeyView } from './api-key.view';
import { toMerchantView } from './merchant.view';
import { toOperatorView } from './operator.view';

const createMerchantSchema = z.strictObject({ name: z.string().trim().min(1).max(200), card_data_access: z.boolean().optional() });
const createKeySchema = z.strictObject({
  mode: z.enum(['test', 'live']).optional(),
  label: z.string().max(200).optional(),
  scope: z.enum(['merchant', 'dashboard']).optional(),
});
const rateLimitSchema = z.strictObject({
  per_second: z.number().positive().max(1_000_000),
  burst: z.number().int().min(1).max(1_000_000),
});
const updateMerchantSchema = z.strictObject({ rate_limit: rateLimitSchema.nullable().optional() });
const createOperatorSchema = z.strictObject({ name: z.string().trim().min(1).max(100) });
const auditQuery = z.object({
  operator_id: z.uuid().optional(),
  merchant_id: z.uuid().optional(),
  via: z.enum(['admin_key', 'dashboard_session', 'api_key']).optional(),
  session_id_prefix: z
    .string()
    .regex(/^[0-9a-f]{12}$/, { message: 'must be the 12 hex characters of an entry' })
    .optional(),
  key_id: z.uuid().optional(),
  role: z.enum(['merchant', 'dashboard', 'operator']).optional(),
});
const idParam = z.uuid();

export interface AdminDeps {
  /** ADMIN_API_KEY is set: without the bootstrap operator nobody could create the others. */
  enabled: boolean;
  operators: Operators;
  audit: AdminAudit;
  merchants: Merchants;
  apiKeys: ApiKeys;
  upstreams: Record<UpstreamService, Upstream>;
  bodyLimitBytes: number;
  logger: Logger;
  /** The dashboard session of a request without X-Admin-Key (an operator's, for the admin API). */
  sessionOf: SessionOfRequest;
  /** The store's and every service's health, for GET /admin/health. */
  health: CheckServiceHealth;
  /** Refused requests of unknown callers: the limit per address (ADMIN_REFUSALS_PER_MINUTE) and their gathered audit entries. */
  refusals: { retryAfter: AdminRetryAfter; count: CountAdminRefusal; log: AdminRefusalLog };
  /** vaultline_admin_refused_total {reason}: every refused admin request, by its error code. */
  refused: CounterHandle;
}

/**
 * The operator API under /admin (header X-Admin-Key: an operator's key, ADMIN_API_KEY being the
 * operator "bootstrap"). /admin/operators, /admin/audit and /admin/merchants* are served here;
 * /admin/<service>/<rest> goes to that service's /admin/<rest> with scope admin. Every request is in the
 * audit log once answered: one entry each when the caller is known, gathered per address and minute
 * when it is not (no key or a wrong one). An address whose requests were refused
 * ADMIN_REFUSALS_PER_MINUTE times in its minute gets 429 too_many_refusals with Retry-After for the rest
 * of it, before its key is looked at. Without ADMIN_API_KEY every /admin path answers 404, as if it did
 * not exist.
 */
export function adminRoutes(deps: AdminDeps): express.Router {
  const router = express.Router();

  const refusedAudit = { ...deps, refused: (request: Parameters<AdminRefusalLog['add']>[0]) => deps.refusals.log.add(request) };
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!deps.enabled) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    auditOnceAnswered(req, res, refusedAudit, () =>
      res.locals.session ? sessionActor(res.locals.session as ActiveSession) : adminKeyActor(res.locals.operator as Operator | undefined),
    );
    const retryAfter = await deps.refusals.retryAfter(clientAddressOf(req));
    if (retryAfter > 0) {
      deps.refused.inc({ reason: 'too_many_refusals' });
      res.setHeader('Retry-After', String(retryAfter));
      throw new TooManyAdminRefusals(retryAfter);
    }
    next();
  });

  // X-Admin-Key, or else an operator's dashboard session (its cookie, with the CSRF checks on a change).
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const adminKey = req.get('x-admin-key');
    try {
      const session = adminKey === undefined ? await deps.sessionOf(req) : null;
      if (session) {
        res.locals.session = session;
        if (session.principal.kind !== 'operator')
          throw new ForbiddenError("A merchant's dashboard session does not reach the admin API.", 'insufficient_scope');
        res.locals.operator = session.principal.operator;
      } else {
        res.locals.operator = await deps.operators.authenticate(adminKey);
      }
    } catch (error) {
      if (isAppError(error) && (error.status === 401 || error.status === 403)) {
        deps.refused.inc({ reason: error.code });
        // A merchant's session is somebody: its refusal has a row of its own, and does not count against its address.
        if (!res.locals.session) await deps.refusals.count(clientAddressOf(req));
      }
      throw error;
    }
    next();
  });

  const operators = express.Router();
  operators.use(contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'));

  operators.post('/', async (req, res) => {
    const input = parseInput(createOperatorSchema, req.body ?? {});
    const { operator, adminKey } = await deps.operators.create(input.name);
    res.locals.createdId = operator.id;
    res.status(201).json({ ...toOperatorView(operator), admin_key: adminKey });
  });

  operators.get('/', async (req, res) => {
    res.json(listResponse(await deps.operators.list(parsePageQuery(req.query)), toOperatorView));
  });

  operators.delete('/:operatorId', async (req, res) => {
    res.json(toOperatorView(await deps.operators.revoke(parseInput(idParam, req.params.operatorId))));
  });

  router.use('/operators', operators);

  router.get('/audit', async (req, res) => {
    const q = req.query;
    const filter = parseInput(auditQuery, {
      operator_id: q.operator_id,
      merchant_id: q.merchant_id,
      via: q.via,
      session_id_prefix: q.session_id_prefix,
      key_id: q.key_id,
      role: q.role,
    });
    const page = await deps.audit.list(
      {
        ...(filter.operator_id ? { operatorId: filter.operator_id } : {}),
        ...(filter.merchant_id ? { merchantId: filter.merchant_id } : {}),
        ...(filter.via ? { via: filter.via } : {}),
        ...(filter.session_id_prefix ? { sessionIdPrefix: filter.session_id_prefix } : {}),
        ...(filter.key_id ? { keyId: filter.key_id } : {}),
        ...(filter.role ? { role: filter.role } : {}),
      },
      { ...parsePageQuery(req.query), order: 'desc' },
    );
    res.json(listResponse(page, (entry) => entry));
  });

  router.get('/health', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await deps.health());
  });

  const merchants = express.Router();
  merchants.use(contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('64kb'));

  merchants.post('/', async (req, res) => {
    const input = parseInput(createMerchantSchema, req.body ?? {});
    const { merchant, apiKey } = await deps.merchants.create({ name: input.name, cardDataAccess: input.card_data_access ?? false });
    res.locals.createdId = merchant.id;
    res.status(201).json({ ...toMerchantView(merchant), api_key: apiKey });
  });

  merchants.get('/', async (req, res) => {
    const page = await deps.merchants.list(parsePageQuery(req.query));
    res.json(listResponse(page, toMerchantView));
  });

  merchants.get('/:merchantId', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    res.json(toMerchantView(await deps.merchants.get(merchantId)));
  });

  merchants.patch('/:merchantId', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    const input = parseInput(updateMerchantSchema, req.body ?? {});
    res.json(toMerchantView(await deps.merchants.update(merchantId, input.rate_limit === undefined ? {} : { rateLimit: input.rate_limit })));
  });

  merchants.post('/:merchantId/api-keys', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    const input = parseInput(createKeySchema, req.body ?? {});
    const { record, apiKey } = await deps.apiKeys.issue(merchantId, {
      mode: input.mode ?? 'test',
      label: input.label ?? null,
      scopes: [input.scope ?? SCOPES.merchant],
    });
    res.locals.createdId = record.id;
    res.status(201).json({ ...toApiKeyView(record), api_key: apiKey });
  });

  merchants.get('/:merchantId/api-keys', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    const page = await deps.apiKeys.list(merchantId, parsePageQuery(req.query));
    res.json(listResponse(page, toApiKeyView));
  });

  merchants.delete('/:merchantId/api-keys/:keyId', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    const keyId = parseInput(idParam, req.params.keyId);
    res.json(toApiKeyView(await deps.apiKeys.revoke(merchantId, keyId)));
  });

  router.use('/merchants', merchants);

  // /admin/<service>/<rest> → <service> /admin/<rest>
  router.use('/:service', async (req: Request, res: Response, next: NextFunction) => {
    const service = String(req.params.service ?? '');
    if (!isUpstreamService(service)) return next();
    const [path = '/', query] = req.url.split(/\?(.*)/s, 2);
    if (!isSafePath(path)) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    assertDeclaredLength(req, deps.bodyLimitBytes);
    assertBodyType(req, JSON_BODY_TYPES);
    setMetricsRoute(res, `/admin/${service}*`);
    const target = `/admin${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
    await deps.upstreams[service].serve(req, res, { service, path: target, merchantId: SYSTEM_MERCHANT_ID, scopes: [SCOPES.admin] }, next);
  });

  router.use((req: Request) => {
    throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
  });

  return router;
}

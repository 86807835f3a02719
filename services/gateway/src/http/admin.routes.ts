import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { SCOPES, SYSTEM_MERCHANT_ID } from '@vaultline/auth';
import type { Logger } from '@vaultline/logger';
import { JSON_BODY_TYPES, RouteNotFoundError, assertBodyType, bodyParsers, contentTypeGuard, listResponse, parseInput, parsePageQuery, requestIdOf } from '@vaultline/http';
import type { ApiKeys } from '../domain/api-keys';
import type { Merchants } from '../domain/merchants';
import type { Operator } from '../domain/operator';
import type { Operators } from '../domain/operators';
import { idsInPath, type AdminAudit } from '../domain/admin-audit';
import { isSafePath, isUpstreamService, type UpstreamService } from '../domain/routing';
import { relayResponse, type Upstream } from './upstream';
import { assertDeclaredLength, readRawBody } from './read-body';
import { toApiKeyView } from './api-key.view';
import { toMerchantView } from './merchant.view';
import { toOperatorView } from './operator.view';

const createMerchantSchema = z.strictObject({ name: z.string().trim().min(1).max(200), card_data_access: z.boolean().optional() });
const createKeySchema = z.strictObject({ mode: z.enum(['test', 'live']).optional(), label: z.string().max(200).optional() });
const rateLimitSchema = z.strictObject({
  per_second: z.number().positive().max(1_000_000),
  burst: z.number().int().min(1).max(1_000_000),
});
const updateMerchantSchema = z.strictObject({ rate_limit: rateLimitSchema.nullable().optional() });
const createOperatorSchema = z.strictObject({ name: z.string().trim().min(1).max(100) });
const auditQuery = z.object({ operator_id: z.uuid().optional() });
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
}

/**
 * The operator API under /admin (header X-Admin-Key: an operator's key, ADMIN_API_KEY being the
 * operator "bootstrap"). /admin/operators, /admin/audit and /admin/merchants* are served here;
 * /admin/<service>/<rest> goes to that service's /admin/<rest> with scope admin. Every request, refused
 * ones included, is appended to the audit log once answered. Without ADMIN_API_KEY every /admin path
 * answers 404, as if it did not exist.
 */
export function adminRoutes(deps: AdminDeps): express.Router {
  const router = express.Router();

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (!deps.enabled) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    const path = req.originalUrl.split('?')[0] ?? '';
    // 'close' also fires when the client went away before the answer: recorded as 499.
    res.once('close', () => {
      const operator = res.locals.operator as Operator | undefined;
      const created = typeof res.locals.createdId === 'string' ? [res.locals.createdId] : [];
      const action = {
        operator_id: operator?.id ?? null,
        operator_name: operator?.name ?? null,
        method: req.method,
        path: path.length > 500 ? `${path.slice(0, 500)}…` : path,
        target_ids: [...idsInPath(path), ...created],
        status: res.writableFinished ? res.statusCode : 499,
        request_id: requestIdOf(req),
      };
      deps.audit.record(action).catch((error: unknown) => deps.logger.error({ err: error, ...action }, 'admin audit entry not written'));
    });
    next();
  });

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    res.locals.operator = await deps.operators.authenticate(req.get('x-admin-key'));
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
    const filter = parseInput(auditQuery, { operator_id: req.query.operator_id });
    const page = await deps.audit.list(filter.operator_id ? { operatorId: filter.operator_id } : {}, { ...parsePageQuery(req.query), order: 'desc' });
    res.json(listResponse(page, (entry) => entry));
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
    const { record, apiKey } = await deps.apiKeys.issue(merchantId, { mode: input.mode ?? 'test', label: input.label ?? null });
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
    const target = `/admin${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
    const body = await readRawBody(req, deps.bodyLimitBytes);
    const response = await deps.upstreams[service].send(req, body, { service, path: target, merchantId: SYSTEM_MERCHANT_ID, scopes: [SCOPES.admin] });
    await relayResponse(response, res, deps.logger, service);
  });

  router.use((req: Request) => {
    throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
  });

  return router;
}

import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { SCOPES, SYSTEM_MERCHANT_ID } from '@vaultline/auth';
import { UnauthorizedError, constantTimeEquals } from '@vaultline/core';
import { RouteNotFoundError, bodyParsers, contentTypeGuard, listResponse, parseInput, parsePageQuery } from '@vaultline/http';
import type { ApiKeys } from '../domain/api-keys';
import type { Merchants } from '../domain/merchants';
import { isSafePath, isUpstreamService, type UpstreamService } from '../domain/routing';
import type { Upstream } from './upstream';
import { assertDeclaredLength, assertSupportedContentType } from './read-body';
import { toApiKeyView } from './api-key.view';
import { toMerchantView } from './merchant.view';

const createMerchantSchema = z.strictObject({ name: z.string().trim().min(1).max(200), card_data_access: z.boolean().optional() });
const createKeySchema = z.strictObject({ mode: z.enum(['test', 'live']).optional(), label: z.string().max(200).optional() });
const idParam = z.uuid();

export interface AdminDeps {
  adminApiKey: string | undefined;
  merchants: Merchants;
  apiKeys: ApiKeys;
  upstreams: Record<UpstreamService, Upstream>;
  bodyLimitBytes: number;
}

/**
 * The operator API under /admin (header X-Admin-Key = ADMIN_API_KEY, compared in constant time).
 * /admin/merchants* is served here; /admin/<service>/<rest> goes to that service's /admin/<rest>
 * with scope admin. Without ADMIN_API_KEY every /admin path answers 404, as if it did not exist.
 */
export function adminRouter(deps: AdminDeps): express.Router {
  const router = express.Router();

  router.use((req: Request, _res: Response, next: NextFunction) => {
    if (!deps.adminApiKey) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    const given = req.get('x-admin-key');
    if (!given) throw new UnauthorizedError('The X-Admin-Key header is required.', 'missing_admin_key');
    if (!constantTimeEquals(given, deps.adminApiKey)) throw new UnauthorizedError('The admin key is not valid.', 'invalid_admin_key');
    next();
  });

  const merchants = express.Router();
  merchants.use(contentTypeGuard(), ...bodyParsers('64kb'));

  merchants.post('/', async (req, res) => {
    const input = parseInput(createMerchantSchema, req.body ?? {});
    const { merchant, apiKey } = await deps.merchants.create({ name: input.name, cardDataAccess: input.card_data_access ?? false });
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

  merchants.post('/:merchantId/api-keys', async (req, res) => {
    const merchantId = parseInput(idParam, req.params.merchantId);
    const input = parseInput(createKeySchema, req.body ?? {});
    const { record, apiKey } = await deps.apiKeys.issue(merchantId, { mode: input.mode ?? 'test', label: input.label ?? null });
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
    assertSupportedContentType(req);
    const target = `/admin${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
    await deps.upstreams[service].send(req, res, { service, path: target, merchantId: SYSTEM_MERCHANT_ID, scopes: [SCOPES.admin] });
  });

  router.use((req: Request) => {
    throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
  });

  return router;
}

import express from 'express';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { JSON_BODY_TYPES, bodyParsers, contentTypeGuard, listResponse, parseInput, parsePageQuery } from '@vaultline/http';
import type { ApiKeys } from '../domain/api-keys';
import type { ResolvedKey } from '../domain/merchant';
import { toApiKeyView } from './api-key.view';

const createSchema = z.strictObject({
  label: z.string().max(200).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});
const idParam = z.uuid();

export interface MerchantApiKeyDeps {
  apiKeys: ApiKeys;
  /** The edge's authentication of a merchant request (key or dashboard session, rate limit, role). */
  authenticate: (req: Request, res: Response) => Promise<ResolvedKey>;
}

/**
 * /api-keys, served by the gateway (it holds the keys): a merchant's own keys of its key's mode. Every
 * key of the merchant reads the list; a secret key issues and revokes dashboard keys of its mode (a
 * secret key itself is issued and revoked by an operator, under /admin). A dashboard key issues none.
 */
export function merchantApiKeyRoutes(deps: MerchantApiKeyDeps): express.Router {
  const router = express.Router();

  router.get('/', async (req: Request, res: Response) => {
    const key = await deps.authenticate(req, res);
    res.json(listResponse(await deps.apiKeys.list(key.merchantId, parsePageQuery(req.query), key.mode), toApiKeyView));
  });

  router.post('/', contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'), async (req: Request, res: Response) => {
    const key = await deps.authenticate(req, res);
    const input = parseInput(createSchema, req.body ?? {});
    const { record, apiKey } = await deps.apiKeys.issue(key.merchantId, { mode: key.mode, label: input.label ?? null, scopes: [SCOPES.dashboard], expiresAt: input.expires_at ? new Date(input.expires_at).toISOString() : null });
    res.locals.createdId = record.id;
    res.status(201).json({ ...toApiKeyView(record), api_key: apiKey });
  });

  router.delete('/:keyId', async (req: Request, res: Response) => {
    const key = await deps.authenticate(req, res);
    const keyId = parseInput(idParam, req.params.keyId);
    res.json(toApiKeyView(await deps.apiKeys.revoke(key.merchantId, keyId, SCOPES.dashboard, key.mode)));
  });

  return router;
}

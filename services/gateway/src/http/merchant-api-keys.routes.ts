import express from 'express';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { ConflictError, ForbiddenError } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import { JSON_BODY_TYPES, bodyParsers, contentTypeGuard, listResponse, parseInput, parsePageQuery } from '@vaultline/http';
import { MAX_ROLL_EXPIRY_SECONDS, type ApiKeys } from '../domain/api-keys';
import type { AdminAudit } from '../domain/admin-audit';
import type { ResolvedKey } from '../domain/merchant';
import { toApiKeyView } from './api-key.view';
import { auditOnceAnswered } from './audit-on-answer';

const createSchema = z.strictObject({
  label: z.string().max(200).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  /** merchant: a secret key (sk_…); dashboard (default, as before): a read-mostly key for support staff. */
  scope: z.enum([SCOPES.merchant, SCOPES.dashboard]).optional(),
});
const rollSchema = z.strictObject({
  expires_in_seconds: z.number().int().min(0).max(MAX_ROLL_EXPIRY_SECONDS).optional(),
});
const idParam = z.uuid();
/** The keys a merchant manages itself: its secret and dashboard keys (import keys are the importer's). */
const OWN_SCOPES = [SCOPES.merchant, SCOPES.dashboard];

export interface MerchantApiKeyDeps {
  apiKeys: ApiKeys;
  /** The edge's authentication of a merchant request (key or dashboard session, rate limit, role). */
  authenticate: (req: Request, res: Response) => Promise<ResolvedKey>;
  audit: AdminAudit;
  logger: Logger;
}

/** The key that signs this request cannot be deleted through it: the caller would lock itself out mid-change. */
export class ApiKeyInUse extends ConflictError {
  constructor() {
    super('api_key_in_use', 'This request is made with that key: delete it with another key (or roll it, keeping it a while).');
  }
}

/**
 * /api-keys, served by the gateway (it holds the keys): a merchant's own keys of its key's mode, as Stripe
 * users manage theirs. Every key of the merchant reads the list; a secret key creates secret and dashboard
 * keys (`scope`), rolls a key (a new one, the old one kept until `expires_in_seconds` from now, at most a
 * week) and deletes one (revoked at once; not the key signing the request). A dashboard key does none of it.
 * Every change is audited: through a dashboard session as every session change is, with X-API-Key here
 * (`via: api_key`, the key that made it).
 */
export function merchantApiKeyRoutes(deps: MerchantApiKeyDeps): express.Router {
  const router = express.Router();

  /** A change: only a secret key (a dashboard key manages no keys), audited when signed with X-API-Key. */
  const changer = async (req: Request, res: Response): Promise<ResolvedKey> => {
    const key = await deps.authenticate(req, res);
    if (req.get('x-api-key') !== undefined) {
      auditOnceAnswered(req, res, deps, () => ({
        operator_id: null,
        operator_name: null,
        merchant_id: key.merchantId,
        mode: key.mode,
        via: 'api_key',
        session_id_prefix: null,
        key_id: key.keyId,
        role: 'merchant',
      }));
    }
    if (!key.scopes.includes(SCOPES.merchant)) throw new ForbiddenError('Only a secret key manages API keys.', 'insufficient_scope');
    return key;
  };

  router.get('/', async (req: Request, res: Response) => {
    const key = await deps.authenticate(req, res);
    res.json(listResponse(await deps.apiKeys.list(key.merchantId, parsePageQuery(req.query), key.mode), toApiKeyView));
  });

  router.post('/', contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'), async (req: Request, res: Response) => {
    const key = await changer(req, res);
    const input = parseInput(createSchema, req.body ?? {});
    const { record, apiKey } = await deps.apiKeys.issue(key.merchantId, {
      mode: key.mode,
      label: input.label ?? null,
      scopes: [input.scope ?? SCOPES.dashboard],
      expiresAt: input.expires_at ? new Date(input.expires_at).toISOString() : null,
    });
    res.locals.createdId = record.id;
    res.status(201).json({ ...toApiKeyView(record), api_key: apiKey });
  });

  router.post('/:keyId/roll', contentTypeGuard(JSON_BODY_TYPES), ...bodyParsers('16kb'), async (req: Request, res: Response) => {
    const key = await changer(req, res);
    const keyId = parseInput(idParam, req.params.keyId);
    const input = parseInput(rollSchema, req.body ?? {});
    const rolled = await deps.apiKeys.roll(key.merchantId, keyId, { expiresInSeconds: input.expires_in_seconds ?? 0, mode: key.mode, onlyScopes: OWN_SCOPES });
    res.locals.createdId = rolled.record.id;
    res.status(201).json({ ...toApiKeyView(rolled.record), api_key: rolled.apiKey, previous: toApiKeyView(rolled.previous) });
  });

  router.delete('/:keyId', async (req: Request, res: Response) => {
    const key = await changer(req, res);
    const keyId = parseInput(idParam, req.params.keyId);
    if (keyId === key.keyId) throw new ApiKeyInUse();
    res.json(toApiKeyView(await deps.apiKeys.revoke(key.merchantId, keyId, OWN_SCOPES, key.mode)));
  });

  return router;
}

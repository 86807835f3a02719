import type { Request, Router } from 'express';
import { z } from 'zod';
import { ForbiddenError } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { answers, authOf, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type { CreateToken, ImportToken } from '../domain/tokens/create-token';
import type { DeleteToken, GetToken, ListTokens } from '../domain/tokens/manage-tokens';
import { toTokenView } from './token.view';

const cardFields = z.object({
  number: z.unknown(),
  exp_month: z.unknown().optional(),
  exp_year: z.unknown().optional(),
  cvc: z.unknown().optional(),
  name: z.unknown().optional(),
});

const createTokenBody = z.object({
  card: cardFields,
  business_key: z.string().trim().min(1).max(255).optional(),
});

const cdeImportBody = z.object({
  metadata: z.object({
    business_key: z.string().trim().min(1).max(255),
    correlation_id: z.string().trim().min(1).max(255).optional(),
  }),
  card: cardFields,
});

const tokenId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The token id must be a UUID.' });
const listQuery = z.object({ business_key: z.string().min(1).max(255).optional(), fingerprint: z.string().min(1).max(64).optional() });
const correlationHeader = z.string().trim().min(1).max(255).optional();

export interface TokenUseCases {
  createToken: CreateToken;
  importToken: ImportToken;
  getToken: GetToken;
  listTokens: ListTokens;
  deleteToken: DeleteToken;
}

/** Merchant-facing token API (reached through the gateway). */
export function tokenRoutes(router: Router, useCases: TokenUseCases): void {
  router.post(
    '/tokens',
    requireCardDataScope,
    answers(async (req) => {
      const scope = scopeOfRequest(req);
      const body = parseInput(createTokenBody, req.body);
      const result = await useCases.createToken({ scope, card: body.card, businessKey: body.business_key ?? null, source: 'api', correlationId: null });
      return reply(201, toTokenView(result.token));
    }),
  );

  router.get('/tokens', requireScope(SCOPES.merchant), async (req, res) => {
    const scope = scopeOfRequest(req);
    const page = parsePageQuery(req.query);
    const filter = parseInput(listQuery, { business_key: req.query.business_key, fingerprint: req.query.fingerprint });
    const result = await useCases.listTokens(scope, { businessKey: filter.business_key, fingerprint: filter.fingerprint }, page);
    res.json(listResponse(result, toTokenView));
  });

  router.get('/tokens/:id', requireScope(SCOPES.merchant), async (req, res) => {
    res.json(toTokenView(await useCases.getToken(scopeOfRequest(req), idOf(req))));
  });

  router.delete('/tokens/:id', requireScope(SCOPES.merchant), async (req, res) => {
    res.json(await useCases.deleteToken(scopeOfRequest(req), idOf(req)));
  });

  /**
   * Called by a third-party platform's forwarding function with the merchant's API key (or a
   * job-scoped import key). A known business_key updates its token: 200 instead of 201. It stores card
   * data (and the CVC a later forward sends) as POST /tokens does, so an ordinary key needs card_data too;
   * a job key's cde_import scope is the card-data grant the importer gave it for this one job.
   */
  router.post(
    '/cde-import',
    requireImportScope,
    answers(async (req) => {
      const scope = scopeOfRequest(req);
      const body = parseInput(cdeImportBody, req.body);
      const header = parseInput(correlationHeader, req.get('x-correlation-id'));
      const result = await useCases.importToken({
        scope,
        card: body.card,
        businessKey: body.metadata.business_key,
        source: 'cde_import',
        correlationId: body.metadata.correlation_id ?? header ?? null,
      });
      return reply(result.updated ? 200 : 201, toTokenView(result.token));
    }),
  );
}

function idOf(req: Request): string {
  return parseInput(tokenId, req.params.id);
}

function requireCardDataScope(req: Request, _res: unknown, next: () => void): void {
  if (!authOf(req).scopes.includes(SCOPES.cardData)) {
    throw new ForbiddenError('This API key may not send card data; use the hosted checkout or ask for card-data access.', 'card_data_access_not_enabled');
  }
  next();
}

function requireImportScope(req: Request, res: unknown, next: () => void): void {
  if (authOf(req).scopes.includes(SCOPES.cdeImport)) return next();
  requireCardDataScope(req, res, next);
}

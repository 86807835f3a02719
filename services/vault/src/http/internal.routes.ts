import type { Router } from 'express';
import { z } from 'zod';
import { ForbiddenError } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { authOf, parseInput } from '@vaultline/http';
import { auditRefusedDetokenize, detokenize } from '../domain/tokens/detokenize';
import type { VaultDeps } from '../domain/ports';

const detokenizeBody = z.object({ purpose: z.string().trim().min(1).max(200) });
const tokenId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The token id must be a UUID.' });

/** The only caller allowed to receive card data is the forwarder, holding tokens:detokenize. */
export const DETOKENIZE_ISSUER = 'forwarder';

/** Internal routes: the gateway never routes /internal/*. */
export function internalRoutes(router: Router, deps: VaultDeps): void {
  router.post('/internal/tokens/:id/detokenize', async (req, res) => {
    const auth = authOf(req);
    const id = parseInput(tokenId, req.params.id);
    const purpose = parseInput(detokenizeBody, req.body).purpose;
    const command = { merchantId: auth.merchantId, tokenId: id, caller: auth.issuer, purpose, requestId: auth.requestId };
    if (auth.issuer !== DETOKENIZE_ISSUER || !auth.scopes.includes(SCOPES.detokenize)) {
      await auditRefusedDetokenize(deps, command);
      throw new ForbiddenError('Detokenization requires the forwarder with the tokens:detokenize scope.', 'insufficient_scope');
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(await detokenize(deps, command));
  });
}

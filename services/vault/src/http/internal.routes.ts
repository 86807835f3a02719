import type { Router } from 'express';
import { z } from 'zod';
import type { VaultInternalApi } from '@vaultline/contracts';
import { bearerTokenOf, parseInput, requestIdOf } from '@vaultline/http';

/** The JSON shape only; the internal API checks the purpose itself. */
const detokenizeBody = z.object({ purpose: z.string() });

/** Internal routes: the gateway never routes /internal/*. Each is one call into the internal API. */
export function internalRoutes(router: Router, api: VaultInternalApi): void {
  router.post('/internal/tokens/:id/detokenize', async (req, res) => {
    const { purpose } = parseInput(detokenizeBody, req.body);
    const card = await api.detokenize({ bearerToken: bearerTokenOf(req), tokenId: String(req.params.id), purpose, requestId: requestIdOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.json(card);
  });
}

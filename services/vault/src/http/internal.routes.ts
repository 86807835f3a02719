import type { Router } from 'express';
import { z } from 'zod';
import type { VaultInternalApi } from '@vaultline/contracts';
import { bearerTokenOf, parseInput, requestIdOf } from '@vaultline/http';

/** The JSON shape only; the internal API checks the purpose itself. */
const detokenizeBody = z.object({ purpose: z.string(), client_request_id: z.string().nullable().optional() });

/** Internal routes: the gateway never routes /internal/*. Each is one call into the internal API. */
export function internalRoutes(router: Router, api: VaultInternalApi): void {
  router.post('/internal/tokens/:id/detokenize', async (req, res) => {
    const { purpose, client_request_id } = parseInput(detokenizeBody, req.body);
    const card = await api.detokenize({
      bearerToken: bearerTokenOf(req),
      tokenId: String(req.params.id),
      purpose,
      requestId: requestIdOf(req),
      clientRequestId: client_request_id,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(card);
  });
}

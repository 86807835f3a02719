import type { Router } from 'express';
import { z } from 'zod';
import type { ForwarderInternalApi } from '@vaultline/contracts';
import { bearerTokenOf, parseInput, requestIdOf } from '@vaultline/http';

/** The JSON shape only; the internal API checks the fields itself. */
const forwardPaymentBody = z.object({
  token_id: z.string(),
  destination_url: z.string(),
  headers: z.record(z.string(), z.string()).default({}),
  format: z.enum(['json', 'form']).optional(),
  body: z.unknown(),
});

/** Internal routes: the gateway never routes /internal/*. Each is one call into the internal API. */
export function internalRoutes(router: Router, api: ForwarderInternalApi): void {
  router.post('/internal/forward/payments', async (req, res) => {
    const input = parseInput(forwardPaymentBody, req.body);
    const answer = await api.forwardPayment({
      bearerToken: bearerTokenOf(req),
      requestId: requestIdOf(req),
      tokenId: input.token_id,
      destinationUrl: input.destination_url,
      headers: input.headers,
      ...(input.format ? { format: input.format } : {}),
      body: input.body,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });
}

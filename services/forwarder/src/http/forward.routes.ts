import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { answers, authOf, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type { ForwardRequest } from '../domain/forward';
import { InvalidForwardBodyError } from '../domain/forward-errors';
import { readForwardHeaders } from './forward-headers';

/** Header telling the merchant how many milliseconds the forwarder added on top of the destination's time. */
export const ADDED_MS_HEADER = 'X-Vaultline-Added-Ms';

export function forwardRoutes(router: Router, { forwardRequest }: { forwardRequest: ForwardRequest }): void {
  router.post(
    '/forward',
    requireScope(SCOPES.merchant),
    answers(async (req) => {
      const auth = authOf(req);
      const headers = readForwardHeaders(req.headers);
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new InvalidForwardBodyError('The request body of the destination is required.');
      const result = await forwardRequest({ scope: scopeOfRequest(req), requestId: auth.requestId, body, ...headers });
      // The destination's own bytes and type, as it answered (card numbers masked).
      return reply(result.status, result.body, {
        ...(result.contentType ? { 'Content-Type': result.contentType } : {}),
        [ADDED_MS_HEADER]: result.addedMs.toFixed(2),
      });
    }),
  );
}

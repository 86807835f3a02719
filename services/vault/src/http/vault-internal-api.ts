import { z } from 'zod';
import { ForbiddenError } from '@vaultline/core';
import { SCOPES, type InternalTokenVerifier } from '@vaultline/auth';
import type { VaultInternalApi } from '@vaultline/contracts';
import { acceptRequestId, parseInput } from '@vaultline/http';
import type { AuditRefusedDetokenize, Detokenize } from '../domain/tokens/detokenize';

const tokenIdSchema = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The token id must be a UUID.' });
const detokenizeInput = z.object({ purpose: z.string().trim().min(1).max(200) });

/** The client's request id as given when it is well-formed (the X-Request-Id rule), else null: nothing is minted for it. */
function wellFormedOrNull(given: string | null | undefined): string | null {
  return given && acceptRequestId(given) === given ? given : null;
}

/** The only caller allowed to receive card data is the forwarder, holding tokens:detokenize. */
export const DETOKENIZE_ISSUER = 'forwarder';

/**
 * The vault's internal API (an inbound adapter, like the routes), whatever carries the call: the HTTP
 * route hands it the bearer token of the request, a caller in the same process (embedded profile) the
 * token it signed. The rule lives
 * here once: the internal JWT is verified (the verifier remembers tokens it already checked), the
 * input validated, a caller other than the forwarder with tokens:detokenize is refused and audited,
 * and card data is released only after its audit record committed (see detokenize).
 * An invalid token is refused before anything else and, as at the HTTP edge, not audited: nothing
 * in it can be trusted to say who called.
 */
export function createVaultInternalApi(
  useCases: { detokenize: Detokenize; auditRefusedDetokenize: AuditRefusedDetokenize },
  verifier: Pick<InternalTokenVerifier, 'verify'>,
): VaultInternalApi {
  return {
    async detokenize(request) {
      const caller = verifier.verify(request.bearerToken);
      const tokenId = parseInput(tokenIdSchema, request.tokenId);
      const { purpose } = parseInput(detokenizeInput, { purpose: request.purpose });
      const command = {
        merchantId: caller.merchantId,
        mode: caller.mode ?? null,
        tokenId,
        caller: caller.issuer,
        purpose,
        requestId: acceptRequestId(request.requestId),
        clientRequestId: wellFormedOrNull(request.clientRequestId),
      };
      if (caller.issuer !== DETOKENIZE_ISSUER || !caller.scopes.includes(SCOPES.detokenize)) {
        await useCases.auditRefusedDetokenize(command);
        throw new ForbiddenError('Detokenization requires the forwarder with the tokens:detokenize scope.', 'insufficient_scope');
      }
      return useCases.detokenize(command);
    },
  };
}

import { z } from 'zod';
import { UnavailableError, type Scope } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import type { InternalClient } from '@vaultline/http';
import type { CardData, CardDataSource, DetokenizeRequestIds } from '../domain/card-data';
import { cardDataOf, detokenizeRefusal, DETOKENIZE_PURPOSE } from './vault-card-data.mapping';

const detokenizedSchema = z.object({
  token_id: z.string(),
  number: z.string().regex(/^\d{8,19}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(1000).max(9999),
  cvc: z
    .string()
    .regex(/^\d{3,4}$/)
    .nullable(),
  cvc_status: z.enum(['available', 'expired', 'not_collected']),
});

/**
 * CardDataSource over the vault's internal detokenize endpoint (local and production profiles, and
 * the embedded one when the vault's in-process API is not offered). The card data is wrapped on arrival.
 */
export function createVaultCardDataSource(vault: Pick<InternalClient, 'request'>): CardDataSource {
  return {
    async reveal(scope: Scope, tokenId: string, { requestId, clientRequestId }: DetokenizeRequestIds): Promise<CardData> {
      const response = await vault.request<unknown>({
        method: 'POST',
        path: `/internal/tokens/${encodeURIComponent(tokenId)}/detokenize`,
        merchantId: scope.merchantId,
        mode: scope.mode,
        scopes: [SCOPES.detokenize],
        requestId,
        body: { purpose: DETOKENIZE_PURPOSE, client_request_id: clientRequestId },
      });
      if (response.status !== 200) throw detokenizeRefusal(response.status);
      const parsed = detokenizedSchema.safeParse(response.body);
      // Never include the zod issues: they would quote the card data.
      if (!parsed.success) throw new UnavailableError('The vault answered detokenize with an unexpected body.', 'vault_unavailable');
      return cardDataOf(parsed.data);
    },
  };
}

import { z } from 'zod';
import { UnavailableError, sensitive } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import type { InternalClient } from '@vaultline/http';
import type { CardData, CardDataSource } from '../domain/card-data';
import { TokenDeletedError, TokenNotFoundError } from '../domain/forward-errors';

const detokenizedSchema = z.object({
  token_id: z.string(),
  number: z.string().regex(/^\d{8,19}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(1000).max(9999),
  cvc: z.string().regex(/^\d{3,4}$/).nullable(),
  cvc_status: z.enum(['available', 'expired', 'not_collected']),
});

/** CardDataSource over the vault's internal detokenize endpoint. The card data is wrapped on arrival. */
export function createVaultCardDataSource(vault: Pick<InternalClient, 'request'>): CardDataSource {
  return {
    async reveal(merchantId: string, tokenId: string, requestId: string): Promise<CardData> {
      const response = await vault.request<unknown>({
        method: 'POST',
        path: `/internal/tokens/${encodeURIComponent(tokenId)}/detokenize`,
        merchantId,
        scopes: [SCOPES.detokenize],
        requestId,
        body: { purpose: 'forward' },
      });
      if (response.status === 404) throw new TokenNotFoundError();
      if (response.status === 410) throw new TokenDeletedError();
      if (response.status !== 200) throw new UnavailableError(`The vault answered ${response.status} to detokenize.`, 'vault_unavailable');
      const parsed = detokenizedSchema.safeParse(response.body);
      // Never include the zod issues: they would quote the card data.
      if (!parsed.success) throw new UnavailableError('The vault answered detokenize with an unexpected body.', 'vault_unavailable');
      const data = parsed.data;
      return {
        tokenId: data.token_id,
        number: sensitive(data.number),
        expMonth: sensitive(data.exp_month),
        expYear: sensitive(data.exp_year),
        securityCode: data.cvc === null ? null : sensitive(data.cvc),
        securityCodeStatus: data.cvc_status,
      };
    },
  };
}

import { AppError, UnavailableError, type Scope } from '@vaultline/core';
import { SCOPES, type InternalTokenSigner } from '@vaultline/auth';
import type { VaultInternalApi } from '@vaultline/contracts';
import type { CardData, CardDataSource, DetokenizeRequestIds } from '../domain/card-data';
import { cardDataOf, detokenizeRefusal, DETOKENIZE_PURPOSE } from './vault-card-data.mapping';

/**
 * CardDataSource calling the vault's internal API in this process (embedded profile), instead of
 * over loopback HTTP. The vault applies the same rule as on its HTTP route: it verifies the internal
 * token signed here exactly as InternalClient would sign it (audience vault, this merchant,
 * tokens:detokenize; the signer reuses it while fresh and the vault's verifier remembers it), audits
 * the call, and answers with the same body. The card data is wrapped on arrival, as over HTTP.
 */
export function createInProcessCardDataSource(vault: VaultInternalApi, signer: Pick<InternalTokenSigner, 'sign'>): CardDataSource {
  return {
    async reveal(scope: Scope, tokenId: string, { requestId, clientRequestId }: DetokenizeRequestIds): Promise<CardData> {
      const bearerToken = signer.sign('vault', { merchantId: scope.merchantId, scopes: [SCOPES.detokenize], mode: scope.mode });
      try {
        return cardDataOf(await vault.detokenize({ bearerToken, tokenId, purpose: DETOKENIZE_PURPOSE, requestId, clientRequestId }));
      } catch (error) {
        if (error instanceof AppError) throw detokenizeRefusal(error.status);
        // Over HTTP the vault would have answered 500 and the forward 503: the same here, cause kept for the log.
        const unavailable = new UnavailableError('The vault failed to detokenize.', 'vault_unavailable');
        unavailable.cause = error;
        throw unavailable;
      }
    },
  };
}

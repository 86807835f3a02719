import { UnavailableError, sensitive } from '@vaultline/core';
import type { DetokenizedCardDto } from '@vaultline/contracts';
import type { CardData } from '../domain/card-data';
import { TokenDeletedError, TokenNotFoundError } from '../domain/forward-errors';

/** Why the forwarder asks the vault for card data (kept in the vault's detokenize audit). */
export const DETOKENIZE_PURPOSE = 'forward';

/** The vault's answer as the forward use case needs it: every card field wrapped on arrival. */
export function cardDataOf(card: Pick<DetokenizedCardDto, 'token_id' | 'number' | 'exp_month' | 'exp_year' | 'cvc' | 'cvc_status'>): CardData {
  return {
    tokenId: card.token_id,
    number: sensitive(card.number),
    expMonth: sensitive(card.exp_month),
    expYear: sensitive(card.exp_year),
    securityCode: card.cvc === null ? null : sensitive(card.cvc),
    securityCodeStatus: card.cvc_status,
  };
}

/**
 * What a refused detokenization means to the forward, from the vault's status (HTTP or in-process):
 * an unknown or deleted token is the merchant's problem; anything else (refused credentials, a vault
 * failure) is ours, and the forward answers 503.
 */
export function detokenizeRefusal(status: number): Error {
  if (status === 404) return new TokenNotFoundError();
  if (status === 410) return new TokenDeletedError();
  return new UnavailableError(`The vault answered ${status} to detokenize.`, 'vault_unavailable');
}

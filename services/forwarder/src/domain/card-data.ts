import type { Scope, Sensitive } from '@vaultline/core';

export type SecurityCodeStatus = 'available' | 'expired' | 'not_collected';

/** What the vault reveals for one forward. Every card field stays wrapped until the body is filled. */
export interface CardData {
  tokenId: string;
  number: Sensitive<string>;
  expMonth: Sensitive<number>;
  expYear: Sensitive<number>;
  securityCode: Sensitive<string> | null;
  securityCodeStatus: SecurityCodeStatus;
}

/**
 * The request ids the vault's detokenize audit keeps: ours (the forward's id, minted here, so the
 * audit entry joins the forward record and no client can choose it) and the client's X-Request-Id,
 * kept apart so a merchant can still find its call.
 */
export interface DetokenizeRequestIds {
  requestId: string;
  clientRequestId: string;
}

/** Port: the vault's internal detokenization. Throws TokenNotFoundError / TokenDeletedError. */
export interface CardDataSource {
  reveal(scope: Scope, tokenId: string, requestIds: DetokenizeRequestIds): Promise<CardData>;
}

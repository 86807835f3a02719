import type { Sensitive } from '@vaultline/core';

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

/** Port: the vault's internal detokenization. Throws TokenNotFoundError / TokenDeletedError. */
export interface CardDataSource {
  reveal(merchantId: string, tokenId: string, requestId: string): Promise<CardData>;
}

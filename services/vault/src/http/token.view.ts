import type { Scheme } from '../domain/card/card-scheme';
import { securityCodeExpiresAt } from '../domain/tokens/security-code';
import type { ReadableToken } from '../domain/tokens/token';

/** The Token resource of the merchant API. */
export interface TokenView {
  id: string;
  /** True for a live-mode token (made with a live key). */
  livemode: boolean;
  business_key: string | null;
  cardholder_name: string | null;
  created_at: string;
  expiry_month: number;
  expiry_year: number;
  masked_account_number: string;
  scheme: Scheme;
  fingerprint: string;
  /** Until when the security code can be used (15 minutes after it was stored); null when none was given. */
  security_code_expires_at: string | null;
}

export function toTokenView({ record, cardholderName }: ReadableToken): TokenView {
  return {
    id: record.id,
    livemode: record.mode === 'live',
    business_key: record.business_key,
    cardholder_name: cardholderName,
    created_at: record.created_at,
    expiry_month: record.expiry_month,
    expiry_year: record.expiry_year,
    masked_account_number: record.masked_account_number,
    scheme: record.scheme,
    fingerprint: record.fingerprint,
    security_code_expires_at: securityCodeExpiresAt(record.security_code_stored_at),
  };
}

import { AppError } from '@vaultline/core';
import { openRecordKey, type RecordCipher } from '@vaultline/crypto';
import type { VaultKeys } from '../keys/vault-keys';
import { securityCodeExpiresAt } from './security-code';
import type { TokenRecord, TokenView } from './token';

export const PAN_FIELD = 'pan';
export const NAME_FIELD = 'cardholder_name';

export class TokenDeleted extends AppError {
  constructor() {
    super('token_deleted', 410, 'The token was deleted; its card data no longer exists.');
  }
}

export function cipherOf(keys: VaultKeys, record: TokenRecord): RecordCipher {
  if (record.status === 'deleted' || !record.wrapped_key) throw new TokenDeleted();
  return openRecordKey(keys.ring, { merchantId: record.merchant_id, recordId: record.id }, { kek_version: record.kek_version, wrapped: record.wrapped_key });
}

export function toTokenView(record: TokenRecord, cardholderName: string | null): TokenView {
  return {
    id: record.id,
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

/** Decrypts the cardholder name for the response (the PAN stays encrypted). */
export function viewOf(keys: VaultKeys, record: TokenRecord): TokenView {
  const name = record.name_ciphertext ? cipherOf(keys, record).decrypt(NAME_FIELD, record.name_ciphertext) : null;
  return toTokenView(record, name);
}

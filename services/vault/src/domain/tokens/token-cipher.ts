import { openRecordKey, type RecordCipher } from '@vaultline/crypto';
import type { VaultKeys } from '../keys/vault-keys';
import { TokenDeleted, type ReadableToken, type TokenRecord } from './token';

/** Field names bound into each ciphertext (associated data), so fields cannot be swapped. */
export const PAN_FIELD = 'pan';
export const NAME_FIELD = 'cardholder_name';

/** The token's own data key, unwrapped; a deleted token has none. */
export function cipherOf(keys: VaultKeys, record: TokenRecord): RecordCipher {
  if (record.status === 'deleted' || !record.wrapped_key) throw new TokenDeleted();
  return openRecordKey(keys.ring, { merchantId: record.merchant_id, recordId: record.id }, { kek_version: record.kek_version, wrapped: record.wrapped_key });
}

/** Decrypts the cardholder name for the merchant (the PAN stays encrypted). */
export function readable(keys: VaultKeys, record: TokenRecord): ReadableToken {
  return { record, cardholderName: record.name_ciphertext ? cipherOf(keys, record).decrypt(NAME_FIELD, record.name_ciphertext) : null };
}

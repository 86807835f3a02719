import { AppError } from '@vaultline/core';
import type { ScopedDocument } from '@vaultline/store';
import type { Scheme } from '../card/card-scheme';

export type TokenSource = 'api' | 'cde_import' | 'checkout';

/**
 * A token as stored. Card data is only in the *_ciphertext fields (AES-256-GCM under the record's
 * data key, which is wrapped by KEK version `kek_version`). After deletion the ciphertexts and the
 * wrapped key are erased (crypto-shredding); the record stays as a tombstone so later use answers
 * token_deleted instead of token_not_found.
 */
export interface TokenRecord extends ScopedDocument {
  status: 'active' | 'deleted';
  business_key: string | null;
  /** Keyed HMAC of the PAN, scoped to the merchant. */
  fingerprint: string;
  scheme: Scheme;
  masked_account_number: string;
  expiry_month: number;
  expiry_year: number;
  source: TokenSource;
  kek_version: number;
  wrapped_key: string | null;
  pan_ciphertext: string | null;
  name_ciphertext: string | null;
  /** When the security code was stored in the TTL store (never the code itself). */
  security_code_stored_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A token with its cardholder name decrypted: what the merchant API shows of it (see http/token.view.ts). */
export interface ReadableToken {
  record: TokenRecord;
  cardholderName: string | null;
}

export class TokenDeleted extends AppError {
  constructor() {
    super('token_deleted', 410, 'The token was deleted; its card data no longer exists.');
  }
}

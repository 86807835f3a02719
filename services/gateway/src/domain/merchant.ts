import type { ApiKeyMode } from '@vaultline/auth';

export interface Merchant {
  id: string;
  name: string;
  /** May send raw card data (card_data scope on its ordinary keys). */
  card_data_access: boolean;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  merchant_id: string;
  /** HMAC-SHA256(key, pepper), hex. The key itself is never stored. */
  key_hash: string;
  prefix: string;
  mode: ApiKeyMode;
  /** Empty for ordinary keys (scopes follow the merchant); ['cde_import'] for import-job keys. */
  scopes: string[];
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
}

/** A merchant request after its key was checked. */
export interface ResolvedKey {
  merchantId: string;
  keyId: string;
  scopes: string[];
  mode: ApiKeyMode;
}

import type { ApiKeyMode } from '@vaultline/auth';
import type { RateLimit } from './rate-limit';

export interface Merchant {
  id: string;
  name: string;
  /** May send raw card data (card_data scope on its ordinary keys). */
  card_data_access: boolean;
  created_at: string;
  /** This merchant's request rate per API key, over RATE_LIMIT_PER_SECOND/RATE_LIMIT_BURST; absent: the defaults. */
  rate_limit?: RateLimit;
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
  /** A key made by rolling another: that key's id (absent otherwise). */
  rolled_from?: string | null;
}

/** A merchant request after its key was checked. */
export interface ResolvedKey {
  merchantId: string;
  keyId: string;
  scopes: string[];
  mode: ApiKeyMode;
  /** The merchant's own rate limit, when an operator set one. */
  rateLimit?: RateLimit;
  /** The merchant's name (the hosted page's default display name, through the internal token). */
  merchantName?: string;
}

import type { ApiKeyRecord } from '../domain/merchant';

/** What the API shows of a key: never its hash, never the key (except once, at creation). */
export const toApiKeyView = (k: ApiKeyRecord) => ({
  id: k.id,
  merchant_id: k.merchant_id,
  prefix: k.prefix,
  mode: k.mode,
  scopes: k.scopes,
  label: k.label,
  created_at: k.created_at,
  revoked_at: k.revoked_at,
  expires_at: k.expires_at,
  rolled_from: k.rolled_from ?? null,
});

import type { CollectionSpec } from '@vaultline/store';

/** Merchants are system records (merchant_id = __system__): the operator lists them all. */
export const MERCHANTS = 'merchants';
/**
 * API keys, each under its merchant. A request is resolved by the key's hash before its merchant is
 * known: the hash index is across merchants, which also keeps a hash unique over every merchant (two
 * gateways bootstrapping one key at once must not give it to two merchants).
 */
export const API_KEYS = 'api_keys';
export const SETTINGS = 'gateway_settings';
/** Operators (named admin keys, hashed) and the append-only log of their actions: system records. */
export const OPERATORS = 'operators';
export const ADMIN_AUDIT = 'admin_audit';

export const gatewayCollections: CollectionSpec[] = [
  { name: MERCHANTS },
  { name: API_KEYS, indexes: [{ fields: ['key_hash'], unique: true, acrossMerchants: true }] },
  { name: SETTINGS, indexes: [{ fields: ['name'], unique: true }] },
  {
    name: OPERATORS,
    indexes: [
      { fields: ['name'], unique: true },
      { fields: ['key_hash'], unique: true },
    ],
  },
  { name: ADMIN_AUDIT, indexes: [{ fields: ['operator_id'] }, { fields: ['subject_merchant_id'] }, { fields: ['session_id_prefix'] }] },
];

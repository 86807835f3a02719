import type { CollectionSpec } from '@vaultline/store';

/** Merchants are system records (merchant_id = __system__): the operator lists them all. */
export const MERCHANTS = 'merchants';
/** API keys, tenant-scoped by their merchant. */
export const API_KEYS = 'api_keys';
/** System-scoped index hash → key, so a request can be resolved before its merchant is known. */
export const API_KEY_HASHES = 'api_key_hashes';
export const SETTINGS = 'gateway_settings';

export const gatewayCollections: CollectionSpec[] = [
  { name: MERCHANTS },
  { name: API_KEYS },
  { name: API_KEY_HASHES, indexes: [{ fields: ['key_hash'], unique: true }] },
  { name: SETTINGS, indexes: [{ fields: ['name'], unique: true }] },
];

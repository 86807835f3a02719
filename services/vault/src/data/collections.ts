import type { CollectionSpec } from '@vaultline/store';

export const COLLECTIONS = {
  tokens: 'tokens',
  businessKeys: 'token_business_keys',
  detokenizeAudit: 'detokenize_audit',
  keyRotations: 'key_rotations',
  checkoutSessions: 'checkout_sessions',
} as const;

export const collectionSpecs: CollectionSpec[] = [
  { name: COLLECTIONS.tokens, indexes: [{ fields: ['business_key'] }, { fields: ['fingerprint'] }, { fields: ['kek_version'] }] },
  // One row per (merchant, business_key): the unique index makes concurrent imports of one key safe.
  { name: COLLECTIONS.businessKeys, indexes: [{ fields: ['business_key'], unique: true }] },
  { name: COLLECTIONS.detokenizeAudit, indexes: [{ fields: ['token_id'] }, { fields: ['caller'] }] },
  { name: COLLECTIONS.keyRotations, indexes: [{ fields: ['state'] }] },
  { name: COLLECTIONS.checkoutSessions, indexes: [{ fields: ['payment_id'] }] },
];

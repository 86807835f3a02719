import { assignMissingModes, moveOutOfSystemScope, type CollectionSpec, type DocumentStore } from '@vaultline/store';
import type { CheckoutSessionRecord } from '../domain/checkout/checkout-session';

export const COLLECTIONS = {
  tokens: 'tokens',
  businessKeys: 'token_business_keys',
  detokenizeAudit: 'detokenize_audit',
  keyRotations: 'key_rotations',
  checkoutSessions: 'checkout_sessions',
  checkoutBranding: 'checkout_branding',
} as const;

export const collectionSpecs: CollectionSpec[] = [
  { name: COLLECTIONS.tokens, indexes: [{ fields: ['business_key'] }, { fields: ['fingerprint'] }, { fields: ['kek_version'] }] },
  // One row per (merchant, business_key): the unique index makes concurrent imports of one key safe.
  { name: COLLECTIONS.businessKeys, indexes: [{ fields: ['business_key'], unique: true }] },
  { name: COLLECTIONS.detokenizeAudit, indexes: [{ fields: ['token_id'] }, { fields: ['caller'] }] },
  { name: COLLECTIONS.keyRotations, indexes: [{ fields: ['state'] }] },
  // Sessions belong to their merchant; the public page and payment events find them without it.
  { name: COLLECTIONS.checkoutSessions, indexes: [{ fields: ['payment_id'], acrossMerchants: true }] },
  // One per merchant, read by its id (the merchant id).
  { name: COLLECTIONS.checkoutBranding },
];

/**
 * Registers the collections. Earlier versions kept checkout sessions under the system scope with
 * their merchant in owner_merchant_id: they move to their merchant here (idempotent). Documents written
 * before test and live were kept apart become test documents (what created them is not recorded).
 */
export async function registerCollections(store: DocumentStore): Promise<void> {
  for (const spec of collectionSpecs) await store.register(spec);
  await moveOutOfSystemScope<CheckoutSessionRecord & { owner_merchant_id?: string }>(store, COLLECTIONS.checkoutSessions, (stored) => {
    const { owner_merchant_id: owner, version: _version, ...session } = stored;
    return owner ? { ...session, merchant_id: owner, mode: 'test' } : null;
  });
  for (const name of [COLLECTIONS.tokens, COLLECTIONS.businessKeys, COLLECTIONS.checkoutSessions]) await assignMissingModes(store, name, () => 'test');
}

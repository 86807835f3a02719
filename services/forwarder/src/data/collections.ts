import type { CollectionSpec } from '@vaultline/store';

export const FORWARDS = 'forwards';
export const DESTINATIONS = 'forward_destinations';

export const forwarderCollections: CollectionSpec[] = [
  { name: FORWARDS, indexes: [{ fields: ['token_id'] }] },
  { name: DESTINATIONS, indexes: [{ fields: ['url'], unique: true }] },
];

import { assignMissingModes, type DocumentStore } from '@vaultline/store';
import { ENDPOINTS, EVENTS, MESSAGES, QUEUE } from './collections';

/**
 * Start-up migration (idempotent): endpoints, events, deliveries and queue entries written before
 * every resource had a mode become test-mode ones. Which key registered an endpoint was not recorded,
 * so none is taken for live: an endpoint registered with a live key before the upgrade is registered
 * again with a live key to receive live events. Returns how many documents got their mode.
 */
export async function assignTestModeToEarlierDocuments(store: DocumentStore): Promise<number> {
  let assigned = 0;
  for (const collection of [ENDPOINTS, EVENTS, MESSAGES, QUEUE]) assigned += await assignMissingModes(store, collection, () => 'test');
  return assigned;
}

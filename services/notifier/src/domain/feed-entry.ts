import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/**
 * An entry of the event feed (event-feed.ts): an event of the log at the position this notifier recorded
 * it. The entry's id is the position, so the store pages the feed in recording order.
 */
export interface FeedEntry extends StoredDocument {
  mode: Mode;
  event_id: string;
  type: string;
}

import type { CollectionSpec } from '@vaultline/store';

export const ENDPOINTS = 'webhook_endpoints';
export const MESSAGES = 'webhook_messages';
export const EVENTS = 'merchant_events';
export const QUEUE = 'webhook_queue';
export const EVENT_FEED = 'merchant_event_feed';

export const notifierCollections: CollectionSpec[] = [
  { name: ENDPOINTS, indexes: [{ fields: ['enabled'] }] },
  {
    name: MESSAGES,
    indexes: [
      { fields: ['endpoint_id'] },
      { fields: ['endpoint_id', 'status'] },
      // One message per event and endpoint, whatever the consumer's redeliveries.
      { fields: ['endpoint_id', 'event_id'], unique: true },
      // GET /reports/webhook-deliveries: the messages of a period.
      { fields: ['created_at'] },
      // GET /events/{event_id}/deliveries: where one event went.
      { fields: ['event_id'] },
    ],
  },
  { name: EVENTS, indexes: [{ fields: ['type'] }] },
  // GET /events/poll: the log in recording order (ids are positions); one entry per event.
  { name: EVENT_FEED, indexes: [{ fields: ['event_id'], unique: true }] },
  // The delivery worker's scan: live entries of every merchant, by due time.
  { name: QUEUE, indexes: [{ fields: ['due_at'], acrossMerchants: true }] },
];

import { newId, type Clock } from '@vaultline/core';
import { scopeOfEvent, type EventEnvelope } from '@vaultline/contracts';
import type { UnitOfWork } from '@vaultline/store';
import type { QueueEntry } from './delivery-queue';
import type { AppendToFeed } from './event-feed';
import { isSubscribedTo } from './webhook-endpoint';
import { mapEventData, webhookBody, type MerchantEventType } from './webhook-payload';
import type { EndpointRepository, EventRepository, MessageRepository, QueueRepository } from './ports';

export interface RecordMerchantEventPorts {
  endpoints: Pick<EndpointRepository, 'listEnabled'>;
  events: Pick<EventRepository, 'insert'>;
  /** The event feed (GET /events/poll): the event at its recording position, in the same unit of work. */
  appendToFeed: AppendToFeed;
  messages: Pick<MessageRepository, 'insert'>;
  queue: Pick<QueueRepository, 'insert'>;
  clock: Clock;
  /** Delay before the first attempt (the first entry of the retry schedule, normally 0). */
  firstAttemptDelayMs: number;
  maxEndpointsPerMerchant: number;
}

/**
 * Adds the event to the merchant's event log and creates one webhook message for each enabled
 * endpoint subscribed to its type, all in the event's mode (an endpoint registered with a test key
 * receives only test events, a live one only live events), in the consumer's unit of work: the log entry, the messages and
 * the consumer's processed mark commit together, so a redelivered event creates nothing twice.
 * Returns the queue entries of the new messages (due once the unit of work has committed).
 */
export type RecordMerchantEvent = (uow: UnitOfWork, event: EventEnvelope & { type: MerchantEventType }) => Promise<QueueEntry[]>;

export function recordMerchantEvent({
  endpoints,
  events,
  appendToFeed,
  messages,
  queue,
  clock,
  firstAttemptDelayMs,
  maxEndpointsPerMerchant,
}: RecordMerchantEventPorts): RecordMerchantEvent {
  return async (uow, event) => {
    const scope = scopeOfEvent(event);
    const data = mapEventData(event.type, event.data as never);
    const logged = events.insert(uow, { id: event.id, merchant_id: scope.merchantId, mode: scope.mode, type: event.type, created_at: event.occurred_at, data });
    appendToFeed(uow, logged);

    const subscribed = (await endpoints.listEnabled(scope, maxEndpointsPerMerchant)).filter((e) => isSubscribedTo(e, event.type));
    if (subscribed.length === 0) return [];
    const payload = webhookBody(event, data);
    const now = clock.now();
    const dueAt = now.getTime() + firstAttemptDelayMs;
    const entries: QueueEntry[] = [];
    for (const endpoint of subscribed) {
      const id = newId();
      entries.push(queue.insert(uow, { id, message_merchant_id: scope.merchantId, mode: scope.mode, endpoint_id: endpoint.id, due_at: dueAt, claimed: false }));
      messages.insert(uow, {
        id,
        merchant_id: scope.merchantId,
        mode: scope.mode,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        payload,
        status: 'pending',
        next_attempt_at: dueAt,
        run_attempts: 0,
        attempt_count: 0,
        replayed: false,
        last_attempt_at: null,
        failure_reason: null,
        attempts: [],
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
    }
    return entries;
  };
}

import type { Clock, Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { DeliveryInProgressError, DeliveryNotFoundError, EndpointDisabledError, EventNotFoundError } from './errors';
import type { MessageStatus, WebhookMessage } from './webhook-message';
import { requireEndpoint } from './manage-endpoints';
import type { EndpointRepository, EventRepository, MessageRepository, QueueRepository, TransactionRunner } from './ports';

// The deliveries (messages and their attempts) of one endpoint, and replays.

/** GET /webhook-endpoints/{id}/deliveries. */
export type ListDeliveries = (scope: Scope, endpointId: string, status: MessageStatus | undefined, page: PageRequest) => Promise<Page<WebhookMessage>>;

export interface FindDeliveriesPorts {
  endpoints: Pick<EndpointRepository, 'get'>;
  messages: Pick<MessageRepository, 'get' | 'listForEndpoint'>;
}

export function listDeliveries({ endpoints, messages }: FindDeliveriesPorts): ListDeliveries {
  return async (scope, endpointId, status, page) => {
    await requireEndpoint(endpoints, scope, endpointId);
    return messages.listForEndpoint(scope, endpointId, status, page);
  };
}

/** GET /webhook-endpoints/{id}/deliveries/{deliveryId}. */
/** Where one event went: its delivery to each endpoint (the Events page). The event must be the caller's. */
export type ListEventDeliveries = (scope: Scope, eventId: string) => Promise<WebhookMessage[]>;

export function listEventDeliveries({
  events,
  messages,
}: {
  events: Pick<EventRepository, 'get'>;
  messages: Pick<MessageRepository, 'listForEvent'>;
}): ListEventDeliveries {
  return async (scope, eventId) => {
    if (!(await events.get(scope, eventId))) throw new EventNotFoundError();
    return messages.listForEvent(scope, eventId);
  };
}

export type GetDelivery = (scope: Scope, endpointId: string, deliveryId: string) => Promise<WebhookMessage>;

export function getDelivery({ endpoints, messages }: FindDeliveriesPorts): GetDelivery {
  return async (scope, endpointId, deliveryId) => {
    await requireEndpoint(endpoints, scope, endpointId);
    return requireDelivery(messages, scope, endpointId, deliveryId);
  };
}

/**
 * Sends the message again, now, with the same webhook-id and body (a receiver that already has
 * it dedupes; one that lost it gets it). A replay starts a new run of the retry schedule.
 */
export type ReplayDelivery = (scope: Scope, endpointId: string, deliveryId: string) => Promise<WebhookMessage>;

export interface ReplayDeliveryPorts {
  endpoints: Pick<EndpointRepository, 'get'>;
  messages: Pick<MessageRepository, 'get' | 'update'>;
  queue: Pick<QueueRepository, 'get' | 'insert' | 'update'>;
  transaction: TransactionRunner;
  clock: Clock;
  /** Wakes the delivery worker after a replay so it does not wait for its next poll. */
  onReplay?: () => void;
}

export function replayDelivery({ endpoints, messages, queue, transaction, clock, onReplay }: ReplayDeliveryPorts): ReplayDelivery {
  return async (scope, endpointId, deliveryId) => {
    const endpoint = await requireEndpoint(endpoints, scope, endpointId);
    if (!endpoint.enabled) throw new EndpointDisabledError();
    const message = await requireDelivery(messages, scope, endpointId, deliveryId);
    const now = clock.now();
    const entry = await queue.get(message.id);
    if (entry?.claimed && entry.due_at > now.getTime()) throw new DeliveryInProgressError();
    const replayed = await transaction((uow) => {
      if (entry) queue.update(uow, { ...entry, claimed: false, due_at: now.getTime() });
      else
        queue.insert(uow, {
          id: message.id,
          message_merchant_id: scope.merchantId,
          mode: scope.mode,
          endpoint_id: endpointId,
          due_at: now.getTime(),
          claimed: false,
        });
      return messages.update(uow, {
        ...message,
        status: 'pending',
        next_attempt_at: now.getTime(),
        run_attempts: 0,
        replayed: true,
        failure_reason: null,
        updated_at: now.toISOString(),
      });
    });
    onReplay?.();
    return replayed;
  };
}

async function requireDelivery(messages: Pick<MessageRepository, 'get'>, scope: Scope, endpointId: string, deliveryId: string): Promise<WebhookMessage> {
  const message = await messages.get(scope, deliveryId);
  if (!message || message.endpoint_id !== endpointId) throw new DeliveryNotFoundError();
  return message;
}

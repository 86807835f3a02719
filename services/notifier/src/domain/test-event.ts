import { newId, type Clock, type Scope } from '@vaultline/core';
import { webhookBody } from './webhook-payload';
import { EndpointDisabledError } from './errors';
import { requireEndpoint } from './manage-endpoints';
import type { EndpointRepository, EventRepository, MessageRepository, QueueRepository, TransactionRunner } from './ports';
import type { WebhookMessage } from './webhook-message';

/** The type of a test event: no bus event has it, so no handler of a real event ever acts on one. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

export type SendTestEvent = (scope: Scope, endpointId: string) => Promise<WebhookMessage>;

export interface SendTestEventPorts {
  endpoints: Pick<EndpointRepository, 'get'>;
  events: Pick<EventRepository, 'insert'>;
  messages: Pick<MessageRepository, 'insert'>;
  queue: Pick<QueueRepository, 'insert'>;
  transaction: TransactionRunner;
  clock: Clock;
  /** Wakes the delivery worker: the test is sent now, not at its next poll. */
  onScheduled?: () => void;
}

/**
 * "Send a test event": one `webhook_endpoint.test` event, in the merchant's event log (so the Events page
 * and GET /events/{id} show it), delivered to this endpoint only, whatever its event types, signed and
 * retried like any delivery (its attempts are in the endpoint's deliveries). A disabled endpoint receives
 * nothing (409 webhook_endpoint_disabled), as for a replay.
 */
export function sendTestEvent({ endpoints, events, messages, queue, transaction, clock, onScheduled }: SendTestEventPorts): SendTestEvent {
  return async (scope, endpointId) => {
    const endpoint = await requireEndpoint(endpoints, scope, endpointId);
    if (!endpoint.enabled) throw new EndpointDisabledError();
    const now = clock.now();
    const eventId = newId();
    const data = { endpoint_id: endpoint.id, url: endpoint.url, message: "A test event: verify its signature with the endpoint's secret and answer 2xx." };
    const payload = webhookBody({ type: TEST_EVENT_TYPE, occurred_at: now.toISOString(), livemode: scope.mode === 'live' }, data);
    const message = await transaction((uow) => {
      events.insert(uow, { id: eventId, merchant_id: scope.merchantId, mode: scope.mode, type: TEST_EVENT_TYPE, created_at: now.toISOString(), data });
      const id = newId();
      queue.insert(uow, { id, message_merchant_id: scope.merchantId, mode: scope.mode, endpoint_id: endpoint.id, due_at: now.getTime(), claimed: false });
      return messages.insert(uow, {
        id,
        merchant_id: scope.merchantId,
        mode: scope.mode,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: TEST_EVENT_TYPE,
        payload,
        status: 'pending',
        next_attempt_at: now.getTime(),
        run_attempts: 0,
        attempt_count: 0,
        replayed: false,
        last_attempt_at: null,
        failure_reason: null,
        attempts: [],
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
    });
    onScheduled?.();
    return message;
  };
}

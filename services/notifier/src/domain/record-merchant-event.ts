import { newId, type Clock } from '@vaultline/core';
import type { EventEnvelope } from '@vaultline/contracts';
import type { UnitOfWork } from '@vaultline/store';
import type { QueueEntry } from './delivery-queue';
import { isSubscribedTo } from './webhook-endpoint';
import { mapEventData, webhookBody, type MerchantEventType } from './webhook-payload';
import type { EndpointRepositoryPort, EventRepositoryPort, MessageRepositoryPort, QueueRepositoryPort } from './ports';

export interface RecordEventDeps {
  endpoints: Pick<EndpointRepositoryPort, 'listEnabled'>;
  events: Pick<EventRepositoryPort, 'insert'>;
  messages: Pick<MessageRepositoryPort, 'insert'>;
  queue: Pick<QueueRepositoryPort, 'insert'>;
  clock: Clock;
  /** Delay before the first attempt (the first entry of the retry schedule, normally 0). */
  firstAttemptDelayMs: number;
  maxEndpointsPerMerchant: number;
}

/**
 * Adds the event to the merchant's event log and creates one webhook message for each enabled
 * endpoint subscribed to its type, in the consumer's unit of work: the log entry, the messages and
 * the consumer's processed mark commit together, so a redelivered event creates nothing twice.
 * Returns the queue entries of the new messages (due once the unit of work has committed).
 */
export async function recordMerchantEvent(
  deps: RecordEventDeps,
  uow: UnitOfWork,
  event: EventEnvelope & { type: MerchantEventType },
): Promise<QueueEntry[]> {
  const data = mapEventData(event.type, event.data as never);
  deps.events.insert(uow, { id: event.id, merchant_id: event.merchant_id, type: event.type, created_at: event.occurred_at, data });

  const endpoints = (await deps.endpoints.listEnabled(event.merchant_id, deps.maxEndpointsPerMerchant)).filter((e) => isSubscribedTo(e, event.type));
  if (endpoints.length === 0) return [];
  const payload = webhookBody(event, data);
  const now = deps.clock.now();
  const dueAt = now.getTime() + deps.firstAttemptDelayMs;
  const entries: QueueEntry[] = [];
  for (const endpoint of endpoints) {
    const id = newId();
    entries.push(deps.queue.insert(uow, { id, message_merchant_id: event.merchant_id, endpoint_id: endpoint.id, due_at: dueAt, claimed: false }));
    deps.messages.insert(uow, {
      id,
      merchant_id: event.merchant_id,
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
}

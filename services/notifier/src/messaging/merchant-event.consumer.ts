import { createEventConsumer } from '@vaultline/bus';
import type { Bus, Subscription } from '@vaultline/bus';
import { merchantEventTypes, type EventEnvelope } from '@vaultline/contracts';
import type { Logger } from '@vaultline/logger';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import { recordMerchantEvent, type RecordEventDeps } from '../domain/record-merchant-event';
import { isMerchantEventType } from '../domain/webhook-payload';
import type { QueueEntry } from '../domain/delivery-queue';

export const MERCHANT_EVENTS_GROUP = 'notifier.merchant-events';

export interface MerchantEventConsumerDeps {
  bus: Bus;
  store: DocumentStore;
  logger: Logger;
  record: RecordEventDeps;
  /** Called with the queue entries of new webhook messages (the delivery worker claims them). */
  onMessagesCreated: (entries: QueueEntry[]) => void;
}

/** Every merchant-facing event in the catalog goes to the event log and to subscribed endpoints. */
export function startMerchantEventConsumer(deps: MerchantEventConsumerDeps): Promise<Subscription> {
  const handle = async (event: EventEnvelope, uow: UnitOfWork): Promise<void> => {
    if (!isMerchantEventType(event.type)) return;
    const created = await recordMerchantEvent(deps.record, uow, { ...event, type: event.type });
    if (created.length > 0) deps.onMessagesCreated(created);
  };
  const handlers = Object.fromEntries(merchantEventTypes.map((type) => [type, handle]));
  return createEventConsumer({ bus: deps.bus, store: deps.store, group: MERCHANT_EVENTS_GROUP, logger: deps.logger, handlers });
}

import type { EventHandlers } from '@vaultline/bus';
import { merchantEventTypes, type EventEnvelope } from '@vaultline/contracts';
import type { UnitOfWork } from '@vaultline/store';
import type { QueueEntry } from '../domain/delivery-queue';
import type { RecordMerchantEvent } from '../domain/record-merchant-event';
import { isMerchantEventType } from '../domain/webhook-payload';

export const MERCHANT_EVENTS_GROUP = 'notifier.merchant-events';

/**
 * Every merchant-facing event in the catalog goes to the event log and to subscribed endpoints;
 * the queue entries of new webhook messages go to `onMessagesCreated` (the delivery worker claims them).
 */
export function merchantEventConsumer(recordMerchantEvent: RecordMerchantEvent, onMessagesCreated: (entries: QueueEntry[]) => void): EventHandlers {
  const handle = async (event: EventEnvelope, uow: UnitOfWork): Promise<void> => {
    if (!isMerchantEventType(event.type)) return;
    const created = await recordMerchantEvent(uow, { ...event, type: event.type });
    if (created.length > 0) onMessagesCreated(created);
  };
  return Object.fromEntries(merchantEventTypes.map((type) => [type, handle]));
}

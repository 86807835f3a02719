import type { Page, PageRequest } from '@vaultline/store';
import { EventNotFoundError } from './errors';
import type { MerchantEvent } from './merchant-event';
import type { EventRepository } from './ports';

/** GET /events: the merchant's event log, newest first, optionally of one type. */
export type ListEvents = (merchantId: string, type: string | undefined, page: PageRequest) => Promise<Page<MerchantEvent>>;

export function listEvents({ events }: { events: Pick<EventRepository, 'list'> }): ListEvents {
  return (merchantId, type, page) => events.list(merchantId, type, page);
}

/** GET /events/{id}. */
export type GetEvent = (merchantId: string, id: string) => Promise<MerchantEvent>;

export function getEvent({ events }: { events: Pick<EventRepository, 'get'> }): GetEvent {
  return async (merchantId, id) => {
    const event = await events.get(merchantId, id);
    if (!event) throw new EventNotFoundError();
    return event;
  };
}

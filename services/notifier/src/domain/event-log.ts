import type { Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { EventNotFoundError } from './errors';
import type { MerchantEvent } from './merchant-event';
import type { EventRepository } from './ports';

/** GET /events: the merchant's event log of the key's mode, newest first, optionally of one type. */
export type ListEvents = (scope: Scope, type: string | undefined, page: PageRequest) => Promise<Page<MerchantEvent>>;

export function listEvents({ events }: { events: Pick<EventRepository, 'list'> }): ListEvents {
  return (scope, type, page) => events.list(scope, type, page);
}

/** GET /events/{id}. */
export type GetEvent = (scope: Scope, id: string) => Promise<MerchantEvent>;

export function getEvent({ events }: { events: Pick<EventRepository, 'get'> }): GetEvent {
  return async (scope, id) => {
    const event = await events.get(scope, id);
    if (!event) throw new EventNotFoundError();
    return event;
  };
}

import type { Page, PageRequest } from '@vaultline/store';
import { EventNotFoundError } from './errors';
import type { MerchantEvent } from './merchant-event';
import type { EventRepositoryPort } from './ports';

export class EventLog {
  constructor(private readonly events: Pick<EventRepositoryPort, 'get' | 'list'>) {}

  list(merchantId: string, type: string | undefined, page: PageRequest): Promise<Page<MerchantEvent>> {
    return this.events.list(merchantId, type, page);
  }

  async get(merchantId: string, id: string): Promise<MerchantEvent> {
    const event = await this.events.get(merchantId, id);
    if (!event) throw new EventNotFoundError();
    return event;
  }
}

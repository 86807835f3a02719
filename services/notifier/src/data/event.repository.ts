import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork, Where } from '@vaultline/store';
import type { MerchantEvent } from '../domain/merchant-event';
import type { EventRepository } from '../domain/ports';
import { EVENTS } from './collections';

export class StoreEventRepository implements EventRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<MerchantEvent>(EVENTS);
  }

  get(scope: Scope, id: string): Promise<MerchantEvent | null> {
    return this.collection.get(scope, id);
  }

  async getMany(scope: Scope, ids: string[]): Promise<MerchantEvent[]> {
    if (ids.length === 0) return [];
    return (await this.collection.list(scope, { id: { in: ids } }, { limit: ids.length })).items;
  }

  /** Newest first, like Stripe's /v1/events. */
  list(scope: Scope, type: string | undefined, page: PageRequest): Promise<Page<MerchantEvent>> {
    const where: Where = type ? { type } : {};
    return this.collection.list(scope, where, { ...page, order: page.order ?? 'desc' });
  }

  insert(uow: UnitOfWork, event: Omit<MerchantEvent, 'version'>): MerchantEvent {
    return uow.insert<MerchantEvent>(EVENTS, event);
  }
}

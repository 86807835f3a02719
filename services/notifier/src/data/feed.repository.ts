import type { Scope } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { FeedEntry } from '../domain/feed-entry';
import type { FeedRepository } from '../domain/ports';
import { EVENT_FEED } from './collections';

export class StoreFeedRepository implements FeedRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<FeedEntry>(EVENT_FEED);
  }

  findByEvent(scope: Scope, eventId: string): Promise<FeedEntry | null> {
    return this.collection.findOne(scope, { event_id: eventId });
  }

  async listAfter(scope: Scope, position: string | undefined, limit: number): Promise<FeedEntry[]> {
    return (await this.collection.list(scope, {}, { limit, order: 'asc', ...(position ? { after: position } : {}) })).items;
  }

  insert(uow: UnitOfWork, entry: Omit<FeedEntry, 'version'>): FeedEntry {
    return uow.insert<FeedEntry>(EVENT_FEED, entry);
  }
}

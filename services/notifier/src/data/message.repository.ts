import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork, Where } from '@vaultline/store';
import type { MessageStatus, WebhookMessage } from '../domain/webhook-message';
import type { MessageRepository } from '../domain/ports';
import { MESSAGES } from './collections';

export class StoreMessageRepository implements MessageRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<WebhookMessage>(MESSAGES);
  }

  get(scope: Scope, id: string): Promise<WebhookMessage | null> {
    return this.collection.get(scope, id);
  }

  listForEndpoint(scope: Scope, endpointId: string, status: MessageStatus | undefined, page: PageRequest): Promise<Page<WebhookMessage>> {
    const where: Where = { endpoint_id: endpointId };
    if (status) where.status = status;
    return this.collection.list(scope, where, { ...page, order: page.order ?? 'desc' });
  }

  async listForEvent(scope: Scope, eventId: string): Promise<WebhookMessage[]> {
    // At most one message per endpoint of the merchant (WEBHOOK_MAX_ENDPOINTS_PER_MERCHANT bounds them).
    const page = await this.collection.list(scope, { event_id: eventId }, { limit: 1_000, order: 'asc' });
    return page.items;
  }

  listInPeriod(scope: Scope, period: { startsAt: string; endsBefore: string }, page: PageRequest): Promise<Page<WebhookMessage>> {
    return this.collection.list(scope, { created_at: { gte: period.startsAt, lt: period.endsBefore } }, page);
  }

  insert(uow: UnitOfWork, message: Omit<WebhookMessage, 'version'>): WebhookMessage {
    return uow.insert<WebhookMessage>(MESSAGES, message);
  }

  update(uow: UnitOfWork, message: WebhookMessage): WebhookMessage {
    return uow.update<WebhookMessage>(MESSAGES, message);
  }
}

import type { Clock } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { DeliveryInProgressError, DeliveryNotFoundError, EndpointDisabledError, WebhookEndpointNotFoundError } from './errors';
import type { MessageStatus, WebhookMessage } from './webhook-message';
import type { EndpointRepositoryPort, MessageRepositoryPort, QueueRepositoryPort, TransactionRunner } from './ports';

export interface DeliveryLogDeps {
  endpoints: Pick<EndpointRepositoryPort, 'get'>;
  messages: Pick<MessageRepositoryPort, 'get' | 'listForEndpoint' | 'update'>;
  queue: Pick<QueueRepositoryPort, 'get' | 'insert' | 'update'>;
  transaction: TransactionRunner;
  clock: Clock;
  /** Wakes the delivery worker after a replay so it does not wait for its next poll. */
  onReplay?: () => void;
}

/** The deliveries (messages and their attempts) of one endpoint, and replays. */
export class DeliveryLog {
  constructor(private readonly deps: DeliveryLogDeps) {}

  async list(merchantId: string, endpointId: string, status: MessageStatus | undefined, page: PageRequest): Promise<Page<WebhookMessage>> {
    await this.requireEndpoint(merchantId, endpointId);
    return this.deps.messages.listForEndpoint(merchantId, endpointId, status, page);
  }

  async get(merchantId: string, endpointId: string, deliveryId: string): Promise<WebhookMessage> {
    await this.requireEndpoint(merchantId, endpointId);
    const message = await this.deps.messages.get(merchantId, deliveryId);
    if (!message || message.endpoint_id !== endpointId) throw new DeliveryNotFoundError();
    return message;
  }

  /**
   * Sends the message again, now, with the same webhook-id and body (a receiver that already has
   * it dedupes; one that lost it gets it). A replay starts a new run of the retry schedule.
   */
  async replay(merchantId: string, endpointId: string, deliveryId: string): Promise<WebhookMessage> {
    const endpoint = await this.requireEndpoint(merchantId, endpointId);
    if (!endpoint.enabled) throw new EndpointDisabledError();
    const message = await this.get(merchantId, endpointId, deliveryId);
    const now = this.deps.clock.now();
    const entry = await this.deps.queue.get(message.id);
    if (entry?.claimed && entry.due_at > now.getTime()) throw new DeliveryInProgressError();
    const replayed = await this.deps.transaction((uow) => {
      if (entry) this.deps.queue.update(uow, { ...entry, claimed: false, due_at: now.getTime() });
      else this.deps.queue.insert(uow, { id: message.id, message_merchant_id: merchantId, endpoint_id: endpointId, due_at: now.getTime(), claimed: false });
      return this.deps.messages.update(uow, {
        ...message,
        status: 'pending',
        next_attempt_at: now.getTime(),
        run_attempts: 0,
        replayed: true,
        failure_reason: null,
        updated_at: now.toISOString(),
      });
    });
    this.deps.onReplay?.();
    return replayed;
  }

  private async requireEndpoint(merchantId: string, endpointId: string) {
    const endpoint = await this.deps.endpoints.get(merchantId, endpointId);
    if (!endpoint) throw new WebhookEndpointNotFoundError();
    return endpoint;
  }
}

import type { Mode, Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { FeedEntry } from './feed-entry';
import type { MerchantEvent } from './merchant-event';
import type { MessageStatus, WebhookMessage } from './webhook-message';
import type { WebhookEndpoint } from './webhook-endpoint';
import type { TransportResult } from './delivery-outcome';
import type { QueueEntry } from './delivery-queue';

export type { TransactionRunner } from '@vaultline/store';

export interface EndpointRepository {
  get(scope: Scope, id: string): Promise<WebhookEndpoint | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<WebhookEndpoint>>;
  count(scope: Scope): Promise<number>;
  /** The enabled endpoints of the scope: a test event never reaches a live endpoint, nor the reverse. */
  listEnabled(scope: Scope, limit: number): Promise<WebhookEndpoint[]>;
  insert(uow: UnitOfWork, endpoint: Omit<WebhookEndpoint, 'version'>): WebhookEndpoint;
  update(uow: UnitOfWork, endpoint: WebhookEndpoint): WebhookEndpoint;
  delete(uow: UnitOfWork, endpoint: WebhookEndpoint): void;
}

export interface MessageRepository {
  get(scope: Scope, id: string): Promise<WebhookMessage | null>;
  listForEndpoint(scope: Scope, endpointId: string, status: MessageStatus | undefined, page: PageRequest): Promise<Page<WebhookMessage>>;
  /** The messages of one event (one per endpoint it went to), oldest first. */
  listForEvent(scope: Scope, eventId: string): Promise<WebhookMessage[]>;
  /** Messages created in [startsAt, endsBefore), every endpoint's, a page at a time (reports). */
  listInPeriod(scope: Scope, period: { startsAt: string; endsBefore: string }, page: PageRequest): Promise<Page<WebhookMessage>>;
  insert(uow: UnitOfWork, message: Omit<WebhookMessage, 'version'>): WebhookMessage;
  update(uow: UnitOfWork, message: WebhookMessage): WebhookMessage;
}

export interface QueueRepository {
  get(messageId: string): Promise<QueueEntry | null>;
  /** Entries due at nowMs (including lapsed claims), across merchants, oldest message first. */
  listDue(nowMs: number, page: PageRequest): Promise<Page<QueueEntry>>;
  insert(uow: UnitOfWork, entry: Omit<QueueEntry, 'version' | 'merchant_id'>): QueueEntry;
  update(uow: UnitOfWork, entry: QueueEntry): QueueEntry;
  delete(uow: UnitOfWork, entry: QueueEntry): void;
}

export interface EventRepository {
  get(scope: Scope, id: string): Promise<MerchantEvent | null>;
  /** The scope's events among these ids (any order; unknown ids left out). */
  getMany(scope: Scope, ids: string[]): Promise<MerchantEvent[]>;
  list(scope: Scope, type: string | undefined, page: PageRequest): Promise<Page<MerchantEvent>>;
  insert(uow: UnitOfWork, event: Omit<MerchantEvent, 'version'>): MerchantEvent;
}

export interface FeedRepository {
  /** The feed entry of an event, if it was recorded since the feed exists. */
  findByEvent(scope: Scope, eventId: string): Promise<FeedEntry | null>;
  /** Entries after a position, oldest first. */
  listAfter(scope: Scope, position: string | undefined, limit: number): Promise<FeedEntry[]>;
  insert(uow: UnitOfWork, entry: Omit<FeedEntry, 'version'>): FeedEntry;
}

export type { SecretSealer } from '@vaultline/crypto';

export interface OutgoingWebhook {
  url: string;
  /** The endpoint's mode: a test endpoint may be a loopback receiver while the service runs on loopback. */
  mode: Mode;
  headers: Record<string, string>;
  body: string;
}

/** Sends one webhook; never throws for a failed delivery — it reports what happened. */
export interface WebhookTransport {
  send(request: OutgoingWebhook): Promise<TransportResult>;
}

/** Throws EndpointUrlNotAllowedError when the URL may not receive webhooks of an endpoint of this mode. */
export type EndpointUrlCheck = (url: string, mode: Mode) => Promise<void>;

/** The few logger calls domain code makes (pino satisfies it). */
export interface DomainLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

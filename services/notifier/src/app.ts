import { startOutboxRelay } from '@vaultline/bus';
import type { Subscription } from '@vaultline/bus';
import { createServiceHttp } from '@vaultline/http';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import type { NotifierConfig } from './config';
import { notifierCollections } from './data/collections';
import { EndpointRepository } from './data/endpoint.repository';
import { EventRepository } from './data/event.repository';
import { MessageRepository } from './data/message.repository';
import { QueueRepository } from './data/queue.repository';
import { resolveNotifierKey } from './data/notifier-key';
import { createSecretCipher } from './data/secret-cipher';
import { createEgressTransport, egressUrlCheck } from './delivery/egress-transport';
import { DeliveryLog } from './domain/delivery-log';
import { DeliveryScheduler } from './domain/delivery-scheduler';
import { EventLog } from './domain/event-log';
import { EndpointManagement } from './domain/manage-endpoints';
import type { RetryPolicy } from './domain/retry-policy';
import { WebhookDelivery } from './domain/webhook-delivery';
import { eventRoutes } from './http/events.router';
import { webhookEndpointRoutes } from './http/webhook-endpoints.router';
import { startMerchantEventConsumer } from './messaging/merchant-event.consumer';

/** A claimed message belongs to its worker this much longer than the request timeout. */
const LEASE_MARGIN_MS = 30_000;

export interface NotifierApp extends ServiceApp {
  /** The delivery worker (tests and benchmarks look at it). */
  readonly scheduler: DeliveryScheduler;
}

export function createApp(runtime: ServiceRuntime, config: NotifierConfig): NotifierApp {
  const { store, bus, logger, clock } = runtime;
  const transaction: <R>(work: Parameters<typeof store.transaction<R>>[0]) => Promise<R> = (work) => store.transaction(work);
  const cipher = createSecretCipher(resolveNotifierKey({ secretKey: config.secretKey, dataDir: config.dataDir }));
  const endpointRepository = new EndpointRepository(store, { enabledCacheMs: config.endpointCacheMs });
  const messageRepository = new MessageRepository(store);
  const eventRepository = new EventRepository(store);
  const queueRepository = new QueueRepository(store);
  const transport = createEgressTransport({
    allowPrivate: config.allowPrivateUrls,
    timeoutMs: config.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    // Several endpoints may share a host: the pool per origin must not be what limits them, or a
    // slow endpoint's requests would queue another endpoint's behind them. The scheduler bounds
    // concurrency per endpoint.
    connectionsPerOrigin: config.maxInFlight,
  });
  const policy: RetryPolicy = { scheduleMs: config.retryScheduleMs, jitter: 0.1 };

  const delivery = new WebhookDelivery({
    endpoints: endpointRepository,
    messages: messageRepository,
    queue: queueRepository,
    transaction,
    cipher,
    transport,
    clock,
    policy,
    leaseMs: config.timeoutMs + LEASE_MARGIN_MS,
    logger,
  });
  const scheduler = new DeliveryScheduler({
    listDue: (nowMs, page) => queueRepository.listDue(nowMs, page),
    delivery,
    clock,
    logger,
    maxInFlight: config.maxInFlight,
    maxInFlightPerEndpoint: config.maxInFlightPerEndpoint,
    pollIntervalMs: config.pollIntervalMs,
  });
  const endpoints = new EndpointManagement({
    endpoints: endpointRepository,
    transaction,
    cipher,
    clock,
    checkUrl: egressUrlCheck(config.allowPrivateUrls),
    rotationGraceMs: config.secretRotationGraceMs,
    maxEndpointsPerMerchant: config.maxEndpointsPerMerchant,
  });
  const deliveries = new DeliveryLog({ endpoints: endpointRepository, messages: messageRepository, queue: queueRepository, transaction, clock, onReplay: () => scheduler.wake() });
  const events = new EventLog(eventRepository);

  const http = createServiceHttp({
    service: 'notifier',
    verifier: runtime.verifier,
    logger,
    readiness: () => store.ping(),
    routes: (router) => {
      webhookEndpointRoutes(router, endpoints, deliveries);
      eventRoutes(router, events);
    },
  });

  let relay: { stop(): Promise<void> } | undefined;
  let consumer: Subscription | undefined;

  return {
    name: 'notifier',
    http,
    scheduler,
    async start() {
      for (const spec of notifierCollections) await store.register(spec);
      // The notifier publishes no events today; the relay keeps the house contract (and future ones) working.
      relay = startOutboxRelay({ store, bus, logger });
      consumer = await startMerchantEventConsumer({
        bus,
        store,
        logger,
        record: {
          endpoints: endpointRepository,
          events: eventRepository,
          messages: messageRepository,
          queue: queueRepository,
          clock,
          firstAttemptDelayMs: config.retryScheduleMs[0] ?? 0,
          maxEndpointsPerMerchant: config.maxEndpointsPerMerchant,
        },
        onMessagesCreated: (entries) => scheduler.offer(entries),
      });
      scheduler.start();
    },
    async stop() {
      await consumer?.stop();
      await scheduler.stop();
      await relay?.stop();
      await transport.close();
    },
  };
}

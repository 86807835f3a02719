import { assertSubscriptionsConsuming, createEventConsumer, startOutboxRelay } from '@vaultline/bus';
import type { Subscription } from '@vaultline/bus';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { createServiceHttp } from '@vaultline/http';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import { createWebhookReceiverClient, egressUrlCheck } from './clients/webhook-receiver.client';
import type { NotifierConfig } from './config';
import { notifierCollections } from './data/collections';
import { CachedEndpointRepository } from './data/enabled-endpoints-cache';
import { StoreEndpointRepository } from './data/endpoint.repository';
import { StoreEventRepository } from './data/event.repository';
import { StoreMessageRepository } from './data/message.repository';
import { OpenedSecretsCache } from './data/opened-secrets-cache';
import { moveSystemScopedQueueEntries, QueueRepository } from './data/queue.repository';
import { getDelivery, listDeliveries, replayDelivery } from './domain/delivery-log';
import { DeliveryScheduler } from './domain/delivery-scheduler';
import { getEvent, listEvents } from './domain/event-log';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from './domain/manage-endpoints';
import type { TransactionRunner } from './domain/ports';
import { recordMerchantEvent } from './domain/record-merchant-event';
import type { RetryPolicy } from './domain/retry-policy';
import { attemptDelivery, claimDeliveries } from './domain/webhook-delivery';
import { eventRoutes } from './http/events.routes';
import { webhookEndpointRoutes } from './http/webhook-endpoints.routes';
import { MERCHANT_EVENTS_GROUP, merchantEventConsumer } from './messaging/merchant-event.consumer';

/** A claimed message belongs to its worker this much longer than the request timeout. */
const LEASE_MARGIN_MS = 30_000;

export function createApp(runtime: ServiceRuntime, config: NotifierConfig): ServiceApp {
  const { store, bus, logger, clock } = runtime;
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const sealer = new AesGcmSecretSealer(config.secretKey);
  const endpoints = new CachedEndpointRepository(new StoreEndpointRepository(store), { ttlMs: config.endpointCacheMs, clock });
  const messages = new StoreMessageRepository(store);
  const events = new StoreEventRepository(store);
  const queue = new QueueRepository(store);
  const transport = createWebhookReceiverClient({
    allowPrivate: config.allowPrivateUrls,
    timeoutMs: config.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    // Several endpoints may share a host: the pool per origin must not be what limits them, or a
    // slow endpoint's requests would queue another endpoint's behind them. The scheduler bounds
    // concurrency per endpoint.
    connectionsPerOrigin: config.maxInFlight,
  });
  const policy: RetryPolicy = { scheduleMs: config.retryScheduleMs, jitter: 0.1 };
  const checkUrl = egressUrlCheck(config.allowPrivateUrls);

  const scheduler = new DeliveryScheduler({
    listDue: (nowMs, page) => queue.listDue(nowMs, page),
    delivery: {
      claim: claimDeliveries({ queue, transaction, clock, leaseMs: config.timeoutMs + LEASE_MARGIN_MS }),
      attempt: attemptDelivery({ endpoints, messages, queue, transaction, sealer: new OpenedSecretsCache(sealer), transport, clock, policy, logger }),
    },
    clock,
    logger,
    maxInFlight: config.maxInFlight,
    maxInFlightPerEndpoint: config.maxInFlightPerEndpoint,
    pollIntervalMs: config.pollIntervalMs,
  });

  const http = createServiceHttp({
    service: 'notifier',
    verifier: runtime.verifier,
    logger,
    readiness: async () => {
      await store.ping();
      assertSubscriptionsConsuming(bus);
    },
    routes: (router) => {
      webhookEndpointRoutes(router, {
        createEndpoint: createEndpoint({ endpoints, transaction, sealer, clock, checkUrl, maxEndpointsPerMerchant: config.maxEndpointsPerMerchant }),
        listEndpoints: listEndpoints({ endpoints }),
        getEndpoint: getEndpoint({ endpoints }),
        updateEndpoint: updateEndpoint({ endpoints, transaction, clock, checkUrl }),
        deleteEndpoint: deleteEndpoint({ endpoints, transaction }),
        rotateEndpointSecret: rotateEndpointSecret({ endpoints, transaction, sealer, clock, rotationGraceMs: config.secretRotationGraceMs }),
        listDeliveries: listDeliveries({ endpoints, messages }),
        getDelivery: getDelivery({ endpoints, messages }),
        replayDelivery: replayDelivery({ endpoints, messages, queue, transaction, clock, onReplay: () => scheduler.wake() }),
      });
      eventRoutes(router, { listEvents: listEvents({ events }), getEvent: getEvent({ events }) });
    },
  });

  const record = recordMerchantEvent({
    endpoints,
    events,
    messages,
    queue,
    clock,
    firstAttemptDelayMs: config.retryScheduleMs[0] ?? 0,
    maxEndpointsPerMerchant: config.maxEndpointsPerMerchant,
  });

  let relay: { stop(): Promise<void> } | undefined;
  let consumer: Subscription | undefined;

  return {
    name: 'notifier',
    http,
    async start() {
      for (const spec of notifierCollections) await store.register(spec);
      await moveSystemScopedQueueEntries(store);
      // The notifier publishes no events today; the relay keeps the house contract (and future ones) working.
      relay = startOutboxRelay({ store, bus, logger });
      consumer = await createEventConsumer({
        bus,
        store,
        group: MERCHANT_EVENTS_GROUP,
        logger,
        handlers: merchantEventConsumer(record, (entries) => scheduler.offer(entries)),
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

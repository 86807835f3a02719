import { assertSubscriptionsConsuming, createEventConsumer, startOutboxRelay } from '@vaultline/bus';
import type { Subscription } from '@vaultline/bus';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { serviceHttp } from '@vaultline/http';
import { idempotencyOf, metricsOf, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';
import { HandedOverContexts } from '@vaultline/telemetry';
import { createWebhookReceiverClient, egressUrlCheck } from './clients/webhook-receiver.client';
import type { NotifierConfig } from './config';
import { notifierCollections } from './data/collections';
import { CachedEndpointRepository } from './data/enabled-endpoints-cache';
import { StoreEndpointRepository } from './data/endpoint.repository';
import { StoreEventRepository } from './data/event.repository';
import { StoreMessageRepository } from './data/message.repository';
import { OpenedSecretsCache } from './data/opened-secrets-cache';
import { assignTestModeToEarlierDocuments } from './data/mode-migration';
import { moveSystemScopedQueueEntries, QueueRepository } from './data/queue.repository';
import { getDelivery, listDeliveries, replayDelivery } from './domain/delivery-log';
import { DeliveryScheduler } from './domain/delivery-scheduler';
import { getEvent, listEvents } from './domain/event-log';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from './domain/manage-endpoints';
import type { TransactionRunner } from './domain/ports';
import { recordMerchantEvent } from './domain/record-merchant-event';
import type { RetryPolicy } from './domain/retry-policy';
import { attemptDelivery, claimDeliveries, type AttemptDelivery } from './domain/webhook-delivery';
import { eventRoutes } from './http/events.routes';
import { webhookEndpointRoutes } from './http/webhook-endpoints.routes';
import { MERCHANT_EVENTS_GROUP, merchantEventConsumer } from './messaging/merchant-event.consumer';
import { reportDeliveries } from './domain/delivery-report';
import { deliveryReportRoutes } from './http/reports.routes';

/** A claimed message belongs to its worker this much longer than the request timeout. */
const LEASE_MARGIN_MS = 30_000;
/** vaultline_webhook_backlog reads at most this many queue entries per scrape. */
const BACKLOG_SCAN_LIMIT = 10_000;

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
  const metrics = metricsOf(runtime, 'notifier');
  metrics.gauge(METRIC.webhookBacklog, 'Webhook messages waiting for a delivery attempt, per endpoint.', ['endpoint'], async () =>
    [...(await queue.waitingByEndpoint(BACKLOG_SCAN_LIMIT))].map(([endpoint, value]) => ({ labels: { endpoint }, value })),
  );
  // A webhook's first attempt continues the trace of the event that created it (see HandedOverContexts).
  const handedOver = new HandedOverContexts();
  const attempt = countedAttempts(
    attemptDelivery({ endpoints, messages, queue, transaction, sealer: new OpenedSecretsCache(sealer), transport, clock, policy, logger }),
    metrics,
    clock,
  );

  const scheduler = new DeliveryScheduler({
    listDue: (nowMs, page) => queue.listDue(nowMs, page),
    delivery: {
      claim: claimDeliveries({ queue, transaction, clock, leaseMs: config.timeoutMs + LEASE_MARGIN_MS }),
      attempt: (entry) => handedOver.runIn(entry.id, () => attempt(entry)),
    },
    clock,
    logger,
    maxInFlight: config.maxInFlight,
    maxInFlightPerEndpoint: config.maxInFlightPerEndpoint,
    pollIntervalMs: config.pollIntervalMs,
  });

  const { http, routes } = serviceHttp({
    service: 'notifier',
    publicBaseUrl: runtime.publicBaseUrl,
    verifier: runtime.verifier,
    logger,
    metrics,
    idempotency: idempotencyOf(runtime),
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
      deliveryReportRoutes(router, { reportDeliveries: reportDeliveries({ messages, endpoints }), clock });
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
    routes,
    async start() {
      for (const spec of notifierCollections) await store.register(spec);
      await moveSystemScopedQueueEntries(store);
      await assignTestModeToEarlierDocuments(store);
      // The notifier publishes no events today; the relay keeps the house contract (and future ones) working.
      relay = startOutboxRelay({ store, bus, logger, metrics });
      consumer = await createEventConsumer({
        bus,
        store,
        group: MERCHANT_EVENTS_GROUP,
        logger,
        handlers: merchantEventConsumer(record, (entries) => {
          handedOver.remember(entries.map((entry) => entry.id));
          scheduler.offer(entries);
        }),
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

/** vaultline_webhook_deliveries_total{endpoint,outcome} and vaultline_webhook_failures_total{endpoint}, per attempt made. */
function countedAttempts(attempt: AttemptDelivery, metrics: ServiceMetrics, clock: ServiceRuntime['clock']): AttemptDelivery {
  const deliveries = metrics.counter(METRIC.webhookDeliveries, 'Webhook delivery attempts, per endpoint and outcome (delivered, failed).', ['endpoint', 'outcome']);
  const failures = metrics.counter(METRIC.webhookFailures, 'Failed webhook delivery attempts, per endpoint.', ['endpoint']);
  return async (entry) => {
    const before = clock.now().toISOString();
    const result = await attempt(entry);
    // Only an attempt this call made (not a message finished without one: endpoint deleted or disabled).
    const made = result.message?.attempts.at(-1);
    if (made && made.attempted_at >= before) {
      const outcome = made.error === null ? 'delivered' : 'failed';
      deliveries.inc({ endpoint: entry.endpoint_id, outcome });
      if (outcome === 'failed') failures.inc({ endpoint: entry.endpoint_id });
    }
    return result;
  };
}

import { assertSubscriptionsConsuming, createEventConsumer, startOutboxRelay } from '@vaultline/bus';
import type { Subscription } from '@vaultline/bus';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { serviceHttp } from '@vaultline/http';
import { idempotencyOf, metricsOf, opsRoutes, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { BACKLOG_TOP_ENDPOINTS, endpointBucket, METRIC, topReadings, type ServiceMetrics } from '@vaultline/metrics';
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
import { getDelivery, listDeliveries, listEventDeliveries, replayDelivery } from './domain/delivery-log';
import { sendTestEvent } from './domain/test-event';
import { DeliveryScheduler } from './domain/delivery-scheduler';
import { getEvent, listEvents } from './domain/event-log';
import { appendToFeed, pollEvents, RecordingsInFlight } from './domain/event-feed';
import { StoreFeedRepository } from './data/feed.repository';
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
  const feed = new StoreFeedRepository(store);
  const recordingsInFlight = new RecordingsInFlight(clock);
  const receiverPolicy = { allowPrivate: config.allowPrivateUrls, loopbackInTestMode: config.loopbackInTestMode };
  const transport = createWebhookReceiverClient({
    ...receiverPolicy,
    timeoutMs: config.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs,
    // Several endpoints may share a host: the pool per origin must not be what limits them, or a
    // slow endpoint's requests would queue another endpoint's behind them. The scheduler bounds
    // concurrency per endpoint.
    connectionsPerOrigin: config.maxInFlight,
    proxy: runtime.egressProxy,
  });
  const policy: RetryPolicy = { scheduleMs: config.retryScheduleMs, jitter: 0.1 };
  const checkUrl = egressUrlCheck(receiverPolicy);
  const metrics = metricsOf(runtime, 'notifier');
  // Every replica reads the whole queue: the alert takes one replica's sum, never the sum of replicas. The largest
  // endpoints by id, the others as `other`, so the series do not grow with merchants' endpoints.
  metrics.gauge(
    METRIC.webhookBacklog,
    'Webhook messages waiting for a delivery attempt, per endpoint (the largest; the rest as other).',
    ['endpoint'],
    async () =>
      topReadings(
        [...(await queue.waitingByEndpoint(BACKLOG_SCAN_LIMIT))].map(([endpoint, value]) => ({ labels: { endpoint }, value })),
        'endpoint',
        BACKLOG_TOP_ENDPOINTS,
      ),
  );
  // A webhook's first attempt continues the trace of the event that created it (see HandedOverContexts).
  const handedOver = new HandedOverContexts();
  const attempt = countedAttempts(
    attemptDelivery({ endpoints, messages, queue, transaction, sealer: new OpenedSecretsCache(sealer), transport, clock, policy, logger }),
    metrics,
    clock,
    logger,
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
      opsRoutes(router, { store });
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
        sendTestEvent: sendTestEvent({ endpoints, events, messages, queue, transaction, clock, onScheduled: () => scheduler.wake() }),
      });
      eventRoutes(router, {
        listEvents: listEvents({ events }),
        getEvent: getEvent({ events }),
        listEventDeliveries: listEventDeliveries({ events, messages }),
        // A recording in another notifier process wakes no reader here: read again every poll interval.
        pollEvents: pollEvents({ feed, events, inFlight: recordingsInFlight, clock, recheckMs: config.pollIntervalMs }),
      });
      deliveryReportRoutes(router, { reportDeliveries: reportDeliveries({ messages, endpoints }), clock });
    },
  });

  const record = recordMerchantEvent({
    endpoints,
    events,
    appendToFeed: appendToFeed({ feed, inFlight: recordingsInFlight }),
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
      // Long polls answer what they have, so the listener drains at once.
      recordingsInFlight.close();
      await consumer?.stop();
      await scheduler.stop();
      await relay?.stop();
      await transport.close();
    },
  };
}

/** vaultline_webhook_deliveries_total{endpoint,outcome} and vaultline_webhook_failures_total{endpoint}, per attempt made, endpoint = its bucket. */
function countedAttempts(attempt: AttemptDelivery, metrics: ServiceMetrics, clock: ServiceRuntime['clock'], logger: ServiceRuntime['logger']): AttemptDelivery {
  const deliveries = metrics.counter(METRIC.webhookDeliveries, 'Webhook delivery attempts, per endpoint and outcome (delivered, failed).', [
    'endpoint',
    'outcome',
  ]);
  const failures = metrics.counter(METRIC.webhookFailures, 'Failed webhook delivery attempts, per endpoint.', ['endpoint']);
  return async (entry) => {
    const before = clock.now().toISOString();
    const result = await attempt(entry);
    // Only an attempt this call made (not a message finished without one: endpoint deleted or disabled).
    const made = result.message?.attempts.at(-1);
    if (made && made.attempted_at >= before) {
      const outcome = made.error === null ? 'delivered' : 'failed';
      // A bucket of endpoints, not the endpoint: merchants create endpoints, the series must not grow with them.
      const endpoint = endpointBucket(entry.endpoint_id);
      deliveries.inc({ endpoint, outcome });
      if (outcome === 'failed') {
        failures.inc({ endpoint });
        // What names the endpoint behind a bucket's VaultlineWebhookFailures.
        logger.info({ endpoint_id: entry.endpoint_id, endpoint_bucket: endpoint, message_id: result.message?.id }, 'webhook delivery attempt failed');
      }
    }
    return result;
  };
}

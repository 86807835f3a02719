import { destinationCatalog, forwardedHeadersOf, PROCESSOR_MANIFESTS, type ProcessorManifest } from '@vaultline/contracts';
import { InternalClient, serviceHttp } from '@vaultline/http';
import { METRIC } from '@vaultline/metrics';
import { idempotencyOf, metricsOf, opsRoutes, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { startOutboxRelay } from '@vaultline/bus';
import { createEgressClient, type EgressClient } from '@vaultline/egress';
import { createVaultCardDataSource } from './clients/vault-card-data.client';
import { createInProcessCardDataSource } from './clients/vault-card-data.in-process';
import type { ForwarderConfig } from './config';
import { FORWARDS, forwarderCollections } from './data/collections';
import { assignMissingModes } from '@vaultline/store';
import { StoreDestinationRepository } from './data/destination.repository';
import { StoreForwardRecordRepository } from './data/forward-record.repository';
import type { CardDataSource } from './domain/card-data';
import { destinationDirectory } from './domain/destination-directory';
import { ruleFromUrl } from './domain/destination-policy';
import { forwardRequest } from './domain/forward';
import { forwardAudit, recordForward } from './domain/record-forward';
import { addDestination, listDestinations, removeDestination } from './domain/manage-destinations';
import type { TransactionRunner } from './domain/ports';
import { adminDestinationRoutes } from './http/admin-destinations.routes';
import { forwardRoutes } from './http/forward.routes';
import { createForwarderInternalApi } from './http/forwarder-internal-api';
import { internalRoutes } from './http/internal.routes';

export interface ForwarderOverrides {
  /** A test may hand in its own egress client (e.g. with a fake DNS resolver). */
  egress?: EgressClient;
  /** The processors whose manifests say where card data may go and which headers pass (default: the installation's; a test adds its own processor). */
  processors?: readonly ProcessorManifest[];
}

/** Seconds: the forwarder's own share is milliseconds, so finer than request durations. */
const ADDED_LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

export function createApp(runtime: ServiceRuntime, config: ForwarderConfig, overrides: ForwarderOverrides = {}): ServiceApp {
  const metrics = metricsOf(runtime, 'forwarder');
  const { store, bus, clock, logger } = runtime;
  const processors = overrides.processors ?? PROCESSOR_MANIFESTS;
  const catalog = destinationCatalog(processors);
  const operatorRules = config.extraDestinations.map((entry, index) =>
    ruleFromUrl(`extra:${index}`, entry.url, true, { cardFields: entry.card_fields, mode: entry.mode, catalog }),
  );
  const egress =
    overrides.egress ??
    createEgressClient({
      allowPrivate: false,
      httpsOnly: config.httpsOnly,
      connectTimeoutMs: config.connectTimeoutMs,
      totalTimeoutMs: config.totalTimeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      connectionsPerOrigin: config.connectionsPerDestination,
      allowPrivateHosts: operatorRules.map((rule) => `${rule.protocol}//${rule.host}${rule.port ? `:${rule.port}` : ''}`),
      proxy: runtime.egressProxy,
    });
  const { cards, closeCards } = cardDataSource(runtime);
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const destinations = new StoreDestinationRepository(store);
  const record = recordForward({ records: new StoreForwardRecordRepository(), transaction });
  const addedLatency = metrics.histogram(
    METRIC.forwardAddedLatency,
    "Seconds the forwarder added to the destination's own time, by outcome.",
    ['outcome'],
    ADDED_LATENCY_BUCKETS,
  );
  const audit = forwardAudit({
    recordForward: (forward) => {
      addedLatency.observe({ outcome: forward.outcome }, forward.addedMs / 1000);
      return record(forward);
    },
    onRecordFailure: (error, record) =>
      logger.error({ err: error, forward_id: record.id, merchant_id: record.scope.merchantId }, 'forward audit record could not be written'),
  });

  const forward = forwardRequest({ cards, destinations: destinationDirectory({ catalog, operatorRules, destinations }), egress, audit, clock });
  const internalApi = createForwarderInternalApi(forward, runtime.verifier, forwardedHeadersOf(processors));

  const { http, routes } = serviceHttp({
    service: 'forwarder',
    publicBaseUrl: runtime.publicBaseUrl,
    verifier: runtime.verifier,
    metrics,
    idempotency: idempotencyOf(runtime),
    logger,
    bodyLimit: config.maxBody,
    rawBodyPaths: ['/forward'],
    readiness: () => store.ping(),
    routes: (router) => {
      opsRoutes(router, { store });
      forwardRoutes(router, { forwardRequest: forward });
      internalRoutes(router, internalApi);
      adminDestinationRoutes(router, {
        addDestination: addDestination({ destinations, transaction, clock, httpsOnly: config.httpsOnly }),
        listDestinations: listDestinations({ destinations }),
        removeDestination: removeDestination({ destinations, transaction }),
      });
    },
  });

  let relay: { stop(): Promise<void> } | undefined;
  return {
    name: 'forwarder',
    http,
    routes,
    exposedApis: { forwarder: internalApi },
    async start() {
      for (const spec of forwarderCollections) await store.register(spec);
      // Forward records written before test and live were kept apart: their mode is not known, they become test.
      await assignMissingModes(store, FORWARDS, () => 'test');
      relay = startOutboxRelay({ store, bus, logger, metrics });
    },
    async stop() {
      // Records of forwards that already answered are still being written: let them reach the outbox.
      await audit.recordsWritten();
      await relay?.stop();
      relay = undefined;
      await closeCards();
      if (!overrides.egress) await egress.close();
    },
  };
}

/** The vault's in-process API when it runs in this process (embedded profile), else its internal HTTP route. */
function cardDataSource(runtime: ServiceRuntime): { cards: CardDataSource; closeCards: () => Promise<void> } {
  const inProcess = runtime.inProcessApis?.vault;
  if (inProcess) return { cards: createInProcessCardDataSource(inProcess, runtime.signer), closeCards: async () => {} };
  const vault = new InternalClient({ signer: runtime.signer, audience: 'vault', baseUrl: runtime.serviceUrls.vault, tls: runtime.internalTls });
  return { cards: createVaultCardDataSource(vault), closeCards: () => vault.close() };
}

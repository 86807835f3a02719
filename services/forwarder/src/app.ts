import { createServiceHttp, InternalClient } from '@vaultline/http';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import { startOutboxRelay } from '@vaultline/bus';
import { createEgressClient, type EgressClient } from '@vaultline/egress';
import type { ForwarderConfig } from './config';
import { forwarderCollections } from './data/collections';
import { createDestinationRepository } from './data/destination.repository';
import { createForwardRecorder } from './data/forward-record.repository';
import { createVaultCardDataSource } from './data/vault-card-data.client';
import { createInProcessCardDataSource } from './data/vault-card-data.in-process';
import type { CardDataSource } from './domain/card-data';
import { createDestinationDirectory } from './domain/destination-directory';
import { ruleFromUrl } from './domain/destination-policy';
import { createForwardUseCase } from './domain/forward';
import { adminDestinationRoutes } from './http/admin-destinations.router';
import { forwardRoutes } from './http/forward.router';

export interface ForwarderOverrides {
  /** A test may hand in its own egress client (e.g. with a fake DNS resolver). */
  egress?: EgressClient;
}

export function createApp(runtime: ServiceRuntime, config: ForwarderConfig, overrides: ForwarderOverrides = {}): ServiceApp {
  const operatorRules = config.extraDestinations.map((url, index) => ruleFromUrl(`extra:${index}`, url, true));
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
    });
  const { cards, closeCards } = cardDataSource(runtime);
  const destinations = createDestinationRepository(runtime.store, runtime.clock);
  const forward = createForwardUseCase({
    cards,
    destinations: createDestinationDirectory(operatorRules, destinations),
    egress,
    recorder: createForwardRecorder(runtime.store),
    clock: runtime.clock,
    onRecordFailure: (error, record) =>
      runtime.logger.error({ err: error, forward_id: record.id, merchant_id: record.merchantId }, 'forward audit record could not be written'),
  });

  const http = createServiceHttp({
    service: 'forwarder',
    verifier: runtime.verifier,
    logger: runtime.logger,
    bodyLimit: config.maxBody,
    rawBodyPaths: ['/forward'],
    readiness: () => runtime.store.ping(),
    routes: (router) => {
      forwardRoutes(router, forward);
      adminDestinationRoutes(router, destinations, config.httpsOnly);
    },
  });

  let relay: { stop(): Promise<void> } | undefined;
  return {
    name: 'forwarder',
    http,
    async start() {
      for (const spec of forwarderCollections) await runtime.store.register(spec);
      relay = startOutboxRelay({ store: runtime.store, bus: runtime.bus, logger: runtime.logger });
    },
    async stop() {
      // Records of forwards that already answered are still being written: let them reach the outbox.
      await forward.recordsWritten();
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
  const vault = new InternalClient({ signer: runtime.signer, audience: 'vault', baseUrl: runtime.serviceUrls.vault });
  return { cards: createVaultCardDataSource(vault), closeCards: () => vault.close() };
}

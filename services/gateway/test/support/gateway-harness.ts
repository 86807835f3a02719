import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { systemClock, type Clock } from '@vaultline/core';
import { openBus } from '@vaultline/bus';
import { MemoryTtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import { MetricsRegistry } from '@vaultline/metrics';
import { startHttpServer } from '@vaultline/http';
import type { ServiceApp, ServiceName, ServiceRuntime } from '@vaultline/runtime';
import type { DocumentStore } from '@vaultline/store';
import { createApp } from '../../src/app';
import { loadGatewayConfig } from '../../src/config';
import { startEchoUpstream, type EchoUpstream } from './echo-upstream';
import { PUBLIC_BASE_URL } from './http-call';

export const ADMIN_KEY = 'admin_test_key_0123456789abcdef0123456789';

export interface Upstreams {
  gatewayKeys: { privateKeyPem: string; publicKeyPem: string };
  importerKeys: { privateKeyPem: string; publicKeyPem: string };
  servers: Partial<Record<ServiceName, EchoUpstream>>;
  urls: Record<ServiceName, string>;
  close(): Promise<void>;
}

/** Echo upstreams for vault, forwarder, importer and notifier; the payment orchestrator is down. */
export async function startUpstreams(): Promise<Upstreams> {
  const gatewayKeys = generateInternalKeyPair();
  const importerKeys = generateInternalKeyPair();
  const servers: Upstreams['servers'] = {};
  for (const service of ['vault', 'forwarder', 'importer', 'notifier'] as const) {
    servers[service] = await startEchoUpstream(service, gatewayKeys.publicKeyPem);
  }
  // A port that was open a moment ago and is closed now: connection refused.
  const down = await startEchoUpstream('payment-orchestrator', gatewayKeys.publicKeyPem);
  await down.close();
  const urls = {
    gateway: 'http://127.0.0.1:1',
    vault: servers.vault!.url,
    forwarder: servers.forwarder!.url,
    importer: servers.importer!.url,
    notifier: servers.notifier!.url,
    'payment-orchestrator': down.url,
  };
  return {
    gatewayKeys,
    importerKeys,
    servers,
    urls,
    close: async () => {
      for (const server of Object.values(servers)) await server?.close();
    },
  };
}

export interface RunningGateway {
  /** The merchant edge (public). */
  url: string;
  /** The gateway's internal API (loopback only; the importer mints import keys there). */
  internalUrl: string;
  app: ServiceApp;
  /** The gateway's metrics, as /metrics serves them (Prometheus text). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export async function startGateway(
  upstreams: Upstreams,
  store: DocumentStore,
  env: Record<string, string> = {},
  options: { clock?: Clock } = {},
): Promise<RunningGateway> {
  const registry = new MetricsRegistry();
  const runtime: ServiceRuntime = {
    metrics: registry.forService('gateway'),
    store,
    bus: await openBus('memory://'),
    ttl: new MemoryTtlStore({ clock: options.clock ?? systemClock }),
    logger: createLogger({ service: 'gateway', level: 'silent' }),
    clock: options.clock ?? systemClock,
    signer: new InternalTokenSigner('gateway', upstreams.gatewayKeys.privateKeyPem),
    verifier: new InternalTokenVerifier('gateway', { importer: upstreams.importerKeys.publicKeyPem, gateway: upstreams.gatewayKeys.publicKeyPem }),
    serviceUrls: upstreams.urls,
    publicBaseUrl: PUBLIC_BASE_URL,
  };
  // Refused connections are retried only briefly here: an upstream that is down stays down in these tests.
  const app = createApp(runtime, loadGatewayConfig({ ADMIN_API_KEY: ADMIN_KEY, GATEWAY_UPSTREAM_CONNECT_RETRY: '300ms', ...env }));
  await app.start();
  const server = await startHttpServer(app.http);
  // As the runtime serves the edge (libs/runtime serve.ts): a test that holds the event loop for seconds
  // (checking every example of the documents) must not race the server closing an idle kept-alive socket.
  server.server.keepAliveTimeout = 65_000;
  const internal = await startHttpServer(app.internalHttp!);
  return {
    url: server.url,
    internalUrl: internal.url,
    app,
    metrics: () => registry.render(),
    close: async () => {
      await server.close();
      await internal.close();
      await app.stop();
      await runtime.bus.close();
    },
  };
}

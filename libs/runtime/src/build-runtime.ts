import { systemClock } from '@vaultline/core';
import { openStore, type DocumentStore, type OpenStoreOptions } from '@vaultline/store';
import {
  DEFAULT_HANDLER_RETRY,
  handlerRetryPolicy,
  observedBus,
  withHealthGrace,
  withRetryDefaults,
  type Bus,
  type HandlerRetrySettings,
} from '@vaultline/bus';
import type { MetricsRegistry } from '@vaultline/metrics';
import type { TtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import { InternalTokenSigner, InternalTokenVerifier } from '@vaultline/auth';
import type { IdempotencyKeys, ServiceName, ServiceRuntime } from './service-runtime';
import { withPingGrace } from './ping-grace';

export interface RuntimeParts {
  service: ServiceName;
  storeUrl: string;
  /** Processed-event retention, and whether MongoDB indexes are created (migrate) or only checked (services). */
  storeOptions?: OpenStoreOptions;
  /** BUS_UNHEALTHY_AFTER_SECONDS in ms: how long a subscription fails before health() (so /ready) reports it. */
  busUnhealthyAfterMs?: number;
  /** BUS_RETRY_*: how the service's handlers are retried before a dead letter (busRetryOf; DEFAULT_HANDLER_RETRY when absent). */
  busRetry?: HandlerRetrySettings;
  /** STORE_UNHEALTHY_AFTER_SECONDS in ms: how long the store's and the TTL store's pings fail before ping() (so /ready) says so. */
  storeUnhealthyAfterMs?: number;
  bus: Bus;
  ttl: TtlStore;
  logLevel: string;
  privateKeyPem: string;
  /** Issuer service → its public key PEM, or several during a key rotation. */
  trustedPublicKeys: Record<string, string | string[]>;
  serviceUrls: Record<ServiceName, string>;
  publicBaseUrl: string;
  inProcessApis?: ServiceRuntime['inProcessApis'];
  inProcessRoutes?: ServiceRuntime['inProcessRoutes'];
  /**
   * IDEMPOTENCY_FINGERPRINT_KEY and IDEMPOTENCY_KEY_TTL (idempotencyKeysOf), or how to load them: loaded on
   * first use, so a service without merchant POSTs (the gateway) never opens or generates the key.
   */
  idempotency: IdempotencyKeys | (() => IdempotencyKeys);
  internalTls?: ServiceRuntime['internalTls'];
  egressProxy?: ServiceRuntime['egressProxy'];
  /** The process's metrics; the service's series carry its name, and its bus is counted (observedBus). */
  metrics?: MetricsRegistry;
  /** Where the service's log lines go (a service thread hands them to the main thread); stdout by default. */
  logDestination?: { write(line: string): void };
}

/** Opens this service's own store and assembles its runtime around the shared bus and TTL store. */
export async function buildRuntime(parts: RuntimeParts): Promise<ServiceRuntime> {
  const store: DocumentStore = await openStore(parts.storeUrl, parts.storeOptions);
  const metrics = parts.metrics?.forService(parts.service);
  const observed = metrics ? observedBus(parts.bus, metrics) : parts.bus;
  const bus = withRetryDefaults(observed, handlerRetryPolicy(parts.busRetry ?? DEFAULT_HANDLER_RETRY));
  const logger = createLogger({ service: parts.service, level: parts.logLevel, ...(parts.logDestination ? { destination: parts.logDestination } : {}) });
  const storeGraceMs = parts.storeUnhealthyAfterMs ?? 0;
  let idempotency: IdempotencyKeys | undefined;
  return {
    store: withPingGrace(store, { name: 'store', graceMs: storeGraceMs, logger }),
    bus: withHealthGrace(bus, parts.busUnhealthyAfterMs ?? 0),
    ...(metrics ? { metrics } : {}),
    ttl: withPingGrace(parts.ttl, { name: 'TTL store', graceMs: storeGraceMs, logger }),
    logger,
    clock: systemClock,
    signer: new InternalTokenSigner(parts.service, parts.privateKeyPem),
    verifier: new InternalTokenVerifier(parts.service, parts.trustedPublicKeys),
    serviceUrls: parts.serviceUrls,
    publicBaseUrl: parts.publicBaseUrl,
    ...(parts.inProcessApis ? { inProcessApis: parts.inProcessApis } : {}),
    ...(parts.inProcessRoutes ? { inProcessRoutes: parts.inProcessRoutes } : {}),
    get idempotency() {
      return (idempotency ??= typeof parts.idempotency === 'function' ? parts.idempotency() : parts.idempotency);
    },
    ...(parts.internalTls ? { internalTls: parts.internalTls } : {}),
    ...(parts.egressProxy ? { egressProxy: parts.egressProxy } : {}),
  };
}

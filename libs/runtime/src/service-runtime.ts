import type { Express } from 'express';
import type { IdempotencySettings, ServiceRoutes } from '@vaultline/http';
import { MetricsRegistry, type ServiceMetrics } from '@vaultline/metrics';
import type { Clock } from '@vaultline/core';
import type { DocumentStore } from '@vaultline/store';
import type { Bus } from '@vaultline/bus';
import type { TtlStore } from '@vaultline/ttl';
import type { Logger } from '@vaultline/logger';
import type { InternalTokenSigner, InternalTokenVerifier } from '@vaultline/auth';
import type { ForwarderInternalApi, VaultInternalApi } from '@vaultline/contracts';
import type { InternalTls } from './internal-tls';
import type { EgressProxy } from '@vaultline/egress';

export const SERVICE_NAMES = ['gateway', 'vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Internal APIs a service offers as plain objects to the services running on the same thread
 * (embedded profile), keyed by the offering service. Each one applies the same checks as the
 * service's internal HTTP route (the caller's internal JWT included); only the transport differs.
 */
export interface InProcessApis {
  vault?: VaultInternalApi;
  forwarder?: ForwarderInternalApi;
}

/**
 * What the launcher hands every service's composition root, whatever the profile:
 * adapters already opened from configuration, and this service's identity for internal calls.
 */
export interface ServiceRuntime {
  /** This service's own store; no other service opens it. */
  store: DocumentStore;
  bus: Bus;
  ttl: TtlStore;
  logger: Logger;
  clock: Clock;
  /** Signs internal JWTs with this service as issuer. */
  signer: InternalTokenSigner;
  /** Verifies internal JWTs addressed to this service. */
  verifier: InternalTokenVerifier;
  /** Base URLs of the other services, for internal HTTP calls. */
  serviceUrls: Record<ServiceName, string>;
  /** The gateway's externally visible base URL (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /**
   * This service's metrics (served on METRICS_PORT by whoever runs it). Absent in tests that build a
   * runtime by hand: metricsOf then gives a registry nobody scrapes.
   */
  metrics?: ServiceMetrics;
  /** Mutual TLS for internal HTTP calls (serviceUrls are https://): the client certificate and the CA to trust. */
  internalTls?: InternalTls;
  /** EGRESS_PROXY_URL: the CONNECT proxy every egress client of the service goes through (createEgressClient's `proxy`). */
  egressProxy?: EgressProxy;
  /**
   * Embedded profile only: the internal APIs of the services on this thread, for a caller to use
   * instead of internal HTTP (filled as services start; a service sees those started before it).
   */
  inProcessApis?: InProcessApis;
  /**
   * Embedded profile only, for the gateway (which starts last): the routes of the services on its thread,
   * which it mounts behind its policy chain instead of calling them over HTTP.
   */
  inProcessRoutes?: Partial<Record<ServiceName, ServiceRoutes>>;
  /**
   * Idempotency-Key on the service's merchant POSTs: the server key of the fingerprints' HMAC and how long
   * answers are kept (IDEMPOTENCY_FINGERPRINT_KEY, IDEMPOTENCY_KEY_TTL). Every profile sets it; a runtime
   * built by hand in a test may leave it out (no Idempotency-Key layer then).
   */
  idempotency?: IdempotencyKeys;
}

/** The runtime's part of a service's Idempotency-Key settings (the store is the runtime's TTL store). */
export interface IdempotencyKeys {
  fingerprintKey: Uint8Array;
  retentionMs: number;
}

/** What every service's createApp returns. */
export interface ServiceApp {
  name: ServiceName;
  http: Express;
  /**
   * The service's internal API when `http` is public (the gateway's merchant edge): served on a second
   * listener that is never published (GATEWAY_INTERNAL_HOST/GATEWAY_INTERNAL_PORT), and the address the
   * other services know the service by (serviceUrls).
   */
  internalHttp?: Express;
  /** The internal APIs this service offers to the others on the same thread (see InProcessApis). */
  exposedApis?: InProcessApis;
  /** The service's routes, for the gateway to mount in its own app in the embedded profile (`http` serves the same routes over HTTP). */
  routes?: ServiceRoutes;
  /** Registers collections, starts the outbox relay, consumers and background workers. */
  start(): Promise<void>;
  /** Stops consumers and workers; does not close the adapters (the launcher owns them). */
  stop(): Promise<void>;
}

/** The Idempotency-Key settings of a service's routes (serviceHttp's `idempotency`): the runtime's keys over its TTL store. */
export function idempotencyOf(runtime: ServiceRuntime): IdempotencySettings | undefined {
  return runtime.idempotency ? { store: runtime.ttl, ...runtime.idempotency } : undefined;
}

/** The runtime's metrics, or a registry of its own nobody scrapes (a runtime built by hand in a test). */
export function metricsOf(runtime: ServiceRuntime, service: ServiceName): ServiceMetrics {
  return runtime.metrics ?? new MetricsRegistry().forService(service);
}

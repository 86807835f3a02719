import { readFileSync } from 'node:fs';
import { DEAD_LETTERS_COLLECTION, openBus, PARKED_OUTBOX_COLLECTION } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import { describeIndexStep, openStore, type CollectionSpec } from '@vaultline/store';
import type { ServiceApp, ServiceName, ServiceRuntime } from './service-runtime';
import { MetricsRegistry, startMetricsServer } from '@vaultline/metrics';
import {
  DEFAULT_METRICS_PORT,
  busRetryOf,
  idempotencyKeysOf,
  kafkaNamingOf,
  kafkaSecurityOf,
  loadRuntimeConfig,
  metricsPortOf,
  processedRetentionOf,
  serviceUrlsFromEnv,
  storeUrlFor,
  tlsOf,
  ttlUrlOf,
} from './runtime-config';
import { buildRuntime } from './build-runtime';
import { listen } from './serve';
import { internalTlsFromEnv, mutualTlsServerOptions } from './internal-tls';
import { withSecretFiles } from './secret-files';
import { shutdownGate } from './shutdown';
import { busReadinessGate } from './bus-readiness';
import { assertProductionSecurity } from './production-security';

export type StandaloneFactory = (runtime: ServiceRuntime, env: NodeJS.ProcessEnv) => ServiceApp | Promise<ServiceApp>;

export interface StandaloneOptions {
  /** The service's collections (with their indexes): what `migrate` creates, and what the service checks at start on MongoDB. */
  collections: () => Promise<CollectionSpec[]>;
  /** Command-line arguments after the script: `migrate` runs the migration instead of the service. */
  argv?: string[];
}

/**
 * `<service> migrate`: creates the service's collections and indexes in its store (MongoDB: the
 * processed-event TTL index, the outbox's order index, the lease collection too), then exits 0. Run
 * once per release before the services start (the Kubernetes Job, the compose service they depend
 * on); production services only check the indexes at start. Needs only the store's URL.
 */
export async function runMigrate(
  service: ServiceName,
  collections: () => Promise<CollectionSpec[]>,
  rawEnv: NodeJS.ProcessEnv = process.env,
  options: { dryRun?: boolean; print?: (line: string) => void } = {},
): Promise<number> {
  const log = createLogger({ service, level: rawEnv.LOG_LEVEL ?? 'info' });
  const print = options.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
  try {
    const env = withSecretFiles(rawEnv);
    const config = loadRuntimeConfig(env);
    assertProductionSecurity(service, 'migrate', config, env);
    const store = await openStore(storeUrlFor(config, service, `sqlite:${config.DATA_DIR}/{service}.db`), {
      indexes: options.dryRun ? 'plan' : 'create',
      processedRetention: processedRetentionOf(config),
    });
    try {
      const specs = [...(await collections()), { name: PARKED_OUTBOX_COLLECTION }, { name: DEAD_LETTERS_COLLECTION }];
      for (const spec of specs) await store.register(spec);
      const steps = store.indexSteps?.() ?? [];
      if (options.dryRun) {
        // The plan, one line per change, and nothing changed: `<service> migrate` would make exactly these.
        for (const step of steps) print(describeIndexStep(step));
        print(`${service} migrate --dry-run: ${steps.length === 0 ? 'nothing to change' : `${steps.length} index change(s)`}; nothing was changed`);
        return 0;
      }
      for (const step of steps) log.info({ collection: step.collection, index: step.index.name, action: step.action }, describeIndexStep(step));
      log.info(
        { collections: specs.map((spec) => spec.name), index_changes: steps.length, processed_events_retention_days: config.PROCESSED_EVENTS_RETENTION_DAYS },
        `${service} migrate: collections and indexes are in place`,
      );
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    log.fatal({ err: error }, `${service} migrate failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * One service as its own process (local and production profiles). Configuration:
 * BUS_URL, STORE_URL (`{service}` replaced) or MONGO_URL, TTL_URL or REDIS_URL, PORT, the other services' base URLs
 * (VAULT_URL, GATEWAY_URL …), INTERNAL_JWT_PRIVATE_KEY (this service's ES256 PEM) and
 * INTERNAL_JWT_PUBLIC_KEYS (JSON object: issuer service → public key PEM, or a list of PEMs during a rotation);
 * every secret also as NAME_FILE (SECRET_VARIABLES). With `migrate` as argument: runMigrate, then exit.
 *
 * SIGTERM: /ready answers 503 at once, the service keeps serving for SHUTDOWN_DELAY_SECONDS, then stops
 * accepting, finishes what is in flight, stops consumers and flushes the outbox, and exits; after
 * SHUTDOWN_GRACE_MS more it exits anyway.
 */
export async function runStandalone(
  service: ServiceName,
  factory: StandaloneFactory,
  env: NodeJS.ProcessEnv = process.env,
  onShutdown: () => Promise<void> = async () => {},
  options?: StandaloneOptions,
): Promise<void> {
  const argv = options?.argv ?? process.argv.slice(2);
  if (options && argv[0] === 'migrate') {
    const code = await runMigrate(service, options.collections, env, { dryRun: argv.includes('--dry-run') });
    await onShutdown();
    process.exit(code);
  }
  const log = createLogger({ service, level: env.LOG_LEVEL ?? 'info' });
  try {
    env = withSecretFiles(env);
    const config = loadRuntimeConfig(env);
    assertProductionSecurity(service, 'service', config, env);
    const privateKeyPem = env.INTERNAL_JWT_PRIVATE_KEY;
    const publicKeysJson = env.INTERNAL_JWT_PUBLIC_KEYS;
    if (!privateKeyPem || !publicKeysJson) {
      throw new Error('missing configuration: INTERNAL_JWT_PRIVATE_KEY and INTERNAL_JWT_PUBLIC_KEYS (or their _FILE variants)');
    }
    if (!config.BUS_URL) throw new Error('missing configuration: BUS_URL');
    const serviceUrls = serviceUrlsFromEnv(env);
    const internalTls = internalTlsFromEnv(env);
    const edgeTls = tlsOf(config);
    const metrics = new MetricsRegistry().collectProcessMetrics();
    const kafkaSecurity = kafkaSecurityOf(config);
    const bus = await openBus(config.BUS_URL, {
      logger: log,
      consumerName: `${service}-${env.HOSTNAME ?? '1'}`,
      kafka: kafkaNamingOf(config, service),
      ...(kafkaSecurity ? { kafkaSecurity } : {}),
    });
    const ttl = await openTtlStore(ttlUrlOf(config) ?? 'memory://', {
      keyPrefix: `vaultline:${service}:`,
      ...(config.REDIS_TLS_CA_FILE ? { tlsCa: readFileSync(config.REDIS_TLS_CA_FILE) } : {}),
    });
    const runtime = await buildRuntime({
      service,
      storeUrl: storeUrlFor(config, service, `sqlite:${config.DATA_DIR}/{service}.db`),
      // MongoDB: indexes are the migrate command's; a service only checks them (SQLite creates its own at start).
      storeOptions: { indexes: 'verify', processedRetention: processedRetentionOf(config) },
      busUnhealthyAfterMs: config.BUS_UNHEALTHY_AFTER_SECONDS * 1000,
      busRetry: busRetryOf(config),
      storeUnhealthyAfterMs: config.STORE_UNHEALTHY_AFTER_SECONDS * 1000,
      bus,
      ttl,
      metrics,
      logLevel: config.LOG_LEVEL,
      privateKeyPem,
      trustedPublicKeys: JSON.parse(publicKeysJson) as Record<string, string | string[]>,
      serviceUrls,
      idempotency: () => idempotencyKeysOf(config),
      // GATEWAY_URL is the gateway's internal listener: the gateway itself falls back to its own edge.
      publicBaseUrl: config.PUBLIC_BASE_URL ?? (service === 'gateway' ? `${edgeTls ? 'https' : 'http'}://localhost:${config.PORT}` : serviceUrls.gateway),
      ...(internalTls ? { internalTls } : {}),
      ...(config.EGRESS_PROXY_URL ? { egressProxy: config.EGRESS_PROXY_URL } : {}),
    });
    const app = await factory(runtime, env);
    // Internal ports take only callers with a certificate from the internal CA; the gateway's edge (PORT of
    // a service with a separate internal listener) is public and uses TLS_CERT_FILE/TLS_KEY_FILE.
    const internalListenerTls = internalTls ? mutualTlsServerOptions(internalTls) : undefined;
    const metricsPort = metricsPortOf(config, DEFAULT_METRICS_PORT);
    const shutdown = shutdownGate();
    // /health and /ready on the metrics port as well (plain HTTP): probes carry no client certificate.
    const busGate = busReadinessGate(runtime.bus);
    const gatedHttp = shutdown.gate(busGate(app.http));
    const metricsServer =
      metricsPort === null ? undefined : await startMetricsServer(config.METRICS_HOST ?? config.HOST, metricsPort, { registry: metrics, probes: gatedHttp });
    // Started before it listens: while a restarted service starts, callers find nothing listening (the
    // gateway answers its own 503 and the merchant retries) rather than a 503 from a service that
    // accepted the request. Its port is configured, so nothing needs it listening earlier.
    await app.start();
    const server = await listen(config.HOST, config.PORT, app.internalHttp ? edgeTls : (internalListenerTls ?? edgeTls));
    const internal = app.internalHttp ? await listen(config.GATEWAY_INTERNAL_HOST, config.GATEWAY_INTERNAL_PORT, internalListenerTls) : undefined;
    server.handle(gatedHttp);
    if (internal && app.internalHttp) internal.handle(shutdown.gate(busGate(app.internalHttp)));
    log.info(
      { url: server.url, ...(internal ? { internal_url: internal.url } : {}), ...(metricsServer ? { metrics_url: metricsServer.url } : {}) },
      `${service} listening`,
    );
    const stop = async (signal: string) => {
      if (shutdown.shuttingDown) return;
      const startedAt = Date.now();
      const delayMs = config.SHUTDOWN_DELAY_SECONDS * 1000;
      log.info(
        { signal, delay_ms: delayMs, grace_ms: config.SHUTDOWN_GRACE_MS },
        `${service} shutting down: /ready fails now, serving ${config.SHUTDOWN_DELAY_SECONDS} s more, then draining`,
      );
      // Whatever is still running when the grace period ends is cut off: consumers' unacknowledged
      // messages are delivered again and the outbox is relayed after the restart (at-least-once).
      setTimeout(() => {
        log.error({ grace_ms: config.SHUTDOWN_GRACE_MS }, `${service} did not drain within SHUTDOWN_GRACE_MS; exiting`);
        process.exit(1);
      }, delayMs + config.SHUTDOWN_GRACE_MS).unref();
      // Unready and still serving for the delay; then stop accepting and finish the requests in flight;
      // then stop the consumers (the message being handled finishes and its offset is committed) and
      // flush the outbox relay (app.stop); then close.
      await shutdown.begin(delayMs, async () => {
        log.info({ ms: Date.now() - startedAt }, `${service} draining`);
        await Promise.all([server.drain(), internal?.drain()]);
      });
      await app.stop();
      await runtime.store.close();
      await bus.close();
      await ttl.close();
      await metricsServer?.close();
      await onShutdown();
      log.info({ ms: Date.now() - startedAt }, `${service} drained`);
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
  } catch (error) {
    log.fatal({ err: error }, `${service} failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

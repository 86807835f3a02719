import { readFileSync } from 'node:fs';
import { openBus } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import type { ServiceApp, ServiceName, ServiceRuntime } from './service-runtime';
import { MetricsRegistry, startMetricsServer } from '@vaultline/metrics';
import { DEFAULT_METRICS_PORT, loadRuntimeConfig, metricsPortOf, serviceUrlsFromEnv, storeUrlFor, tlsOf } from './runtime-config';
import { buildRuntime } from './build-runtime';
import { listen } from './serve';
import { internalTlsFromEnv, mutualTlsServerOptions } from './internal-tls';

export type StandaloneFactory = (runtime: ServiceRuntime, env: NodeJS.ProcessEnv) => ServiceApp | Promise<ServiceApp>;

/** Reads a secret from NAME or from the file named by NAME_FILE (Docker/Kubernetes secrets). */
function secretFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  if (file) return readFileSync(file, 'utf8').trim();
  return env[name];
}

/**
 * One service as its own process (local and production profiles). Configuration:
 * BUS_URL, STORE_URL (`{service}` replaced), TTL_URL, PORT, the other services' base URLs
 * (VAULT_URL, GATEWAY_URL …), INTERNAL_JWT_PRIVATE_KEY (this service's ES256 PEM) and
 * INTERNAL_JWT_PUBLIC_KEYS (JSON object: issuer service → public key PEM, or a list of PEMs during a rotation), each also as *_FILE.
 */
export async function runStandalone(
  service: ServiceName,
  factory: StandaloneFactory,
  env: NodeJS.ProcessEnv = process.env,
  onShutdown: () => Promise<void> = async () => {},
): Promise<void> {
  const log = createLogger({ service, level: env.LOG_LEVEL ?? 'info' });
  try {
    const config = loadRuntimeConfig(env);
    const privateKeyPem = secretFromEnv(env, 'INTERNAL_JWT_PRIVATE_KEY');
    const publicKeysJson = secretFromEnv(env, 'INTERNAL_JWT_PUBLIC_KEYS');
    if (!privateKeyPem || !publicKeysJson) {
      throw new Error('missing configuration: INTERNAL_JWT_PRIVATE_KEY and INTERNAL_JWT_PUBLIC_KEYS (or their _FILE variants)');
    }
    if (!config.BUS_URL) throw new Error('missing configuration: BUS_URL');
    const serviceUrls = serviceUrlsFromEnv(env);
    const internalTls = internalTlsFromEnv(env);
    const edgeTls = tlsOf(config);
    const metrics = new MetricsRegistry().collectProcessMetrics();
    const bus = await openBus(config.BUS_URL, { logger: log, consumerName: `${service}-${env.HOSTNAME ?? '1'}` });
    const ttl = await openTtlStore(config.TTL_URL ?? 'memory://', { keyPrefix: `vaultline:${service}:` });
    const runtime = await buildRuntime({
      service,
      storeUrl: storeUrlFor(config, service, `sqlite:${config.DATA_DIR}/{service}.db`),
      bus,
      ttl,
      metrics,
      logLevel: config.LOG_LEVEL,
      privateKeyPem,
      trustedPublicKeys: JSON.parse(publicKeysJson) as Record<string, string | string[]>,
      serviceUrls,
      // GATEWAY_URL is the gateway's internal listener: the gateway itself falls back to its own edge.
      publicBaseUrl: config.PUBLIC_BASE_URL ?? (service === 'gateway' ? `${edgeTls ? 'https' : 'http'}://localhost:${config.PORT}` : serviceUrls.gateway),
      ...(internalTls ? { internalTls } : {}),
    });
    const app = await factory(runtime, env);
    // Internal ports take only callers with a certificate from the internal CA; the gateway's edge (PORT of
    // a service with a separate internal listener) is public and uses TLS_CERT_FILE/TLS_KEY_FILE.
    const internalListenerTls = internalTls ? mutualTlsServerOptions(internalTls) : undefined;
    const metricsPort = metricsPortOf(config, DEFAULT_METRICS_PORT);
    const metricsServer = metricsPort === null ? undefined : await startMetricsServer(config.METRICS_HOST ?? config.HOST, metricsPort, { registry: metrics });
    // Started before it listens: while a restarted service starts, callers find nothing listening (the
    // gateway answers its own 503 and the merchant retries) rather than a 503 from a service that
    // accepted the request. Its port is configured, so nothing needs it listening earlier.
    await app.start();
    const server = await listen(config.HOST, config.PORT, app.internalHttp ? edgeTls : (internalListenerTls ?? edgeTls));
    const internal = app.internalHttp ? await listen(config.GATEWAY_INTERNAL_HOST, config.GATEWAY_INTERNAL_PORT, internalListenerTls) : undefined;
    server.handle(app.http);
    if (internal && app.internalHttp) internal.handle(app.internalHttp);
    log.info({ url: server.url, ...(internal ? { internal_url: internal.url } : {}), ...(metricsServer ? { metrics_url: metricsServer.url } : {}) }, `${service} listening`);
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const startedAt = Date.now();
      log.info({ signal, grace_ms: config.SHUTDOWN_GRACE_MS }, `${service} draining`);
      // Whatever is still running when the grace period ends is cut off: consumers' unacknowledged
      // messages are delivered again and the outbox is relayed after the restart (at-least-once).
      setTimeout(() => {
        log.error({ grace_ms: config.SHUTDOWN_GRACE_MS }, `${service} did not drain within SHUTDOWN_GRACE_MS; exiting`);
        process.exit(1);
      }, config.SHUTDOWN_GRACE_MS).unref();
      // Stop accepting and finish the requests in flight; then stop the consumers (the message being
      // handled finishes and its offset is committed) and flush the outbox relay (app.stop); then close.
      await Promise.all([server.drain(), internal?.drain()]);
      await app.stop();
      await runtime.store.close();
      await bus.close();
      await ttl.close();
      await metricsServer?.close();
      await onShutdown();
      log.info({ ms: Date.now() - startedAt }, `${service} drained`);
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  } catch (error) {
    log.fatal({ err: error }, `${service} failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { BroadcastWakeSource, openBus, type Bus } from '@vaultline/bus';
import { freePort } from '@vaultline/core';
import { tagServerSpan } from '@vaultline/http';
import { openTtlStore } from '@vaultline/ttl';
import { createLogger, lineWriterOf } from '@vaultline/logger';
import { MetricsRegistry, startMetricsServer, type MetricsServer } from '@vaultline/metrics';
import {
  buildRuntime,
  busRetryOf,
  generateServiceKeys,
  idempotencyKeysOf,
  listen,
  loadRuntimeConfig,
  metricsPortOf,
  processedRetentionOf,
  storeUrlFor,
  tlsOf,
  type Listening,
  type ServiceApp,
  type ServiceName,
  type ServiceRuntime,
} from '@vaultline/runtime';
import { serviceFactories, startOrder } from './service-registry';
import { provideDevelopmentCredentials } from './generated-credentials';
import { startServiceThread, type ServiceThread } from './service-thread/service-thread';
import { threadedServicesOf } from './service-thread/thread-config';

export interface EmbeddedOptions {
  /** Where the SQLite files live (DATA_DIR); default ./data. */
  dataDir?: string;
  /** The gateway's port (PORT); 0 picks a free one. */
  port?: number;
  host?: string;
  /** Extra environment for the services, over process.env. */
  env?: Record<string, string>;
  /**
   * A service thread died after it started (an uncaught error in its service). Logged at fatal level
   * in any case; main-embedded then stops the system and exits non-zero, as an uncaught error on the
   * main thread would end the process.
   */
  onServiceThreadFailure?: (error: Error) => void;
}

export interface EmbeddedSystem {
  /** The gateway's base URL. */
  baseUrl: string;
  bootstrapApiKey: string;
  adminApiKey: string;
  /** The file holding the keys generated because BOOTSTRAP_API_KEY or ADMIN_API_KEY was not set. */
  generatedCredentialsFile?: string;
  /** The services on the main thread (the others are in `threads`). */
  services: Partial<Record<ServiceName, { app: ServiceApp; runtime: ServiceRuntime; url: string }>>;
  /** The services running on a worker thread of their own (EMBEDDED_SERVICE_THREADS), with their URLs. */
  threads: Partial<Record<ServiceName, { url: string }>>;
  /** The used heap of those threads together (each has its own V8 heap); after a full gc when asked. */
  threadHeapUsed(options?: { gc?: boolean }): Promise<number>;
  bus: Bus;
  /** GET /metrics of the whole process (every service, the threads' included), when METRICS_PORT is set. */
  metricsUrl?: string;
  /**
   * Drains, then stops: the listeners stop accepting and the requests in flight finish (for at most
   * SHUTDOWN_GRACE_MS, then they are cut off), consumers finish the message in hand and commit, outbox
   * relays publish what is committed, then the stores and the bus close.
   */
  stop(): Promise<void>;
}

/**
 * The embedded profile: all six services in this process, an SQLite-backed in-process bus, an SQLite
 * file per service under DATA_DIR and an in-process TTL store. Nothing to install; data survives a restart.
 *
 * - Services on the main thread: the gateway mounts each one's routes (ServiceApp.routes) behind its
 *   policy chain, which hands them the request with its context (merchant, mode, scopes, key id, client
 *   address, request id, trace): one HTTP parse, no internal JWT. The forwarder calls the vault's
 *   detokenization as an object when the vault is beside it. Each also listens on a loopback port, where
 *   the services on other threads reach it over HTTP.
 * - Services named in EMBEDDED_SERVICE_THREADS (the importer and the notifier by default) run on a worker
 *   thread of their own and are reached exactly as in the local profile: HTTP on their loopback port, with
 *   the internal JWT. They share the bus file; a wake source tells each thread of the others' appends.
 */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedSystem> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  if (options.port !== undefined) env.PORT = String(options.port);
  if (options.host) env.HOST = options.host;
  const config = loadRuntimeConfig(env);
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  env.DATA_DIR = dataDir;
  const generatedCredentialsFile = provideDevelopmentCredentials(env, dataDir);
  env.DEV_KEYS_IN_DATA_DIR ??= 'true'; // development profile: generated keys stay in DATA_DIR (the vault warns); 'false' puts them in KEYS_DIR
  // Every service's Idempotency-Key fingerprints: one key, generated where the services' own keys are.
  const idempotency = idempotencyKeysOf(loadRuntimeConfig(env));

  const log = createLogger({ service: 'launcher', level: config.LOG_LEVEL });
  const busUrl = config.BUS_URL ?? `sqlite:${dataDir}/bus.db`;
  // Threads share the bus through its file: with another bus every service stays on the main thread.
  const threaded = threadedServicesOf(env);
  const bus = await openBus(busUrl, { logger: log, ...(threaded.length > 0 ? { wakeSource: new BroadcastWakeSource(busUrl) } : {}) });
  const ttlUrl = config.TTL_URL ?? 'memory://';
  const ttl = await openTtlStore(ttlUrl);
  const keys = generateServiceKeys();
  const storeUrlOf = (service: ServiceName) => storeUrlFor(config, service, `sqlite:${dataDir}/{service}.db`);

  // Every service's URL is known before any of them starts: a loopback port each, the gateway's from PORT.
  const servers = {} as Partial<Record<ServiceName, Listening>>;
  const serviceUrls = {} as Record<ServiceName, string>;
  const threads: ServiceThread[] = [];
  const services = {} as EmbeddedSystem['services'];
  const started: ServiceApp[] = [];

  // The gateway's internal API (import keys): loopback, and the address the other services know it by.
  let gatewayInternal: Listening | undefined;
  // One registry for the main thread's services; each thread keeps its own and is asked at scrape time.
  const metrics = new MetricsRegistry().collectProcessMetrics();
  let metricsServer: MetricsServer | undefined;

  /** Stop accepting and let the requests in flight finish, at most until the grace period ends. */
  async function drainListeners(listeners: Array<Listening | undefined>): Promise<void> {
    const open = listeners.filter((listener): listener is Listening => listener !== undefined);
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, config.SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.all(open.map((listener) => listener.drain())), graceOver]);
    clearTimeout(graceTimer);
    await Promise.all(open.map((listener) => listener.close()));
  }

  async function stopAll(): Promise<void> {
    await drainListeners([servers.gateway, gatewayInternal]);
    for (const thread of threads) await thread.stop().catch((e: unknown) => log.error({ err: e, service: thread.service }, 'stop failed'));
    for (const app of [...started].reverse()) await app.stop().catch((e: unknown) => log.error({ err: e, service: app.name }, 'stop failed'));
    await drainListeners(Object.values(servers));
    for (const { runtime } of Object.values(services)) await runtime.store.close();
    await bus.close();
    await ttl.close();
    await metricsServer?.close();
  }

  try {
    for (const service of startOrder) {
      if (threaded.includes(service)) serviceUrls[service] = `http://127.0.0.1:${await freePort()}`;
      else {
        const server = service === 'gateway' ? await listen(config.HOST, config.PORT, tlsOf(config)) : await listen('127.0.0.1', 0);
        servers[service] = server;
        serviceUrls[service] = server.url;
      }
    }
    gatewayInternal = await listen('127.0.0.1', 0);
    const gatewayUrl = serviceUrls.gateway;
    serviceUrls.gateway = gatewayInternal.url;
    const gatewayAddress = new URL(gatewayUrl);
    const publicBaseUrl = config.PUBLIC_BASE_URL ?? `${gatewayAddress.protocol}//localhost:${gatewayAddress.port}`;
    env.PUBLIC_BASE_URL ??= publicBaseUrl;
    const threadEnv = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    // What every service is built from, on whichever thread it runs.
    const partsOf = (service: ServiceName) => ({
      service,
      storeUrl: storeUrlOf(service),
      // SQLite creates its tables and indexes at start; processed-event marks are pruned hourly.
      storeOptions: { processedRetention: processedRetentionOf(config) },
      busUnhealthyAfterMs: config.BUS_UNHEALTHY_AFTER_SECONDS * 1000,
      busRetry: busRetryOf(config),
      storeUnhealthyAfterMs: config.STORE_UNHEALTHY_AFTER_SECONDS * 1000,
      logLevel: config.LOG_LEVEL,
      privateKeyPem: keys.privateKeys[service],
      trustedPublicKeys: keys.publicKeys,
      serviceUrls,
      publicBaseUrl,
      idempotency,
    });

    // The threads build their services while this thread builds the others.
    for (const service of threaded) {
      const thread = startServiceThread(
        { ...partsOf(service), port: Number(new URL(serviceUrls[service]).port), env: threadEnv, busUrl, ttlUrl },
        {
          writeLogLine: lineWriterOf(log),
          onFailure: (error) => {
            log.fatal({ err: error, service }, 'service thread failed');
            options.onServiceThreadFailure?.(error);
          },
        },
      );
      threads.push(thread);
    }

    // Services call the in-process APIs of those started before them; the gateway, last, mounts their routes.
    const inProcessApis: NonNullable<ServiceRuntime['inProcessApis']> = {};
    const inProcessRoutes: NonNullable<ServiceRuntime['inProcessRoutes']> = {};
    for (const service of startOrder) {
      const server = servers[service];
      if (!server) continue;
      // The gateway starts last, once every service behind it serves.
      if (service === 'gateway') await Promise.all(threads.map((thread) => thread.started));
      const runtime = await buildRuntime({ ...partsOf(service), bus, ttl, metrics, inProcessApis, ...(service === 'gateway' ? { inProcessRoutes } : {}) });
      const app = (await serviceFactories[service]())(runtime, env);
      services[service] = { app, runtime, url: server.url };
      await app.start();
      started.push(app);
      // One process, one service.name for every span: each service's server span names its service.
      server.handle((req, res) => {
        tagServerSpan('vaultline.service', service);
        app.http(req, res);
      });
      if (app.internalHttp) gatewayInternal?.handle(app.internalHttp);
      Object.assign(inProcessApis, app.exposedApis);
      if (app.routes) inProcessRoutes[service] = app.routes;
    }
    // Off unless METRICS_PORT is set (0: a free port): a single-process profile for one machine opens no
    // port nobody asked for. Loopback unless METRICS_HOST says otherwise.
    const metricsPort = metricsPortOf(config, 'off');
    if (metricsPort !== null) {
      metricsServer = await startMetricsServer(config.METRICS_HOST ?? '127.0.0.1', metricsPort, {
        registry: metrics,
        threads: () => threads.map((thread) => thread.metricsJson()),
      });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    baseUrl: servers.gateway!.url,
    bootstrapApiKey: env.BOOTSTRAP_API_KEY!,
    adminApiKey: env.ADMIN_API_KEY!,
    ...(generatedCredentialsFile ? { generatedCredentialsFile } : {}),
    services,
    threads: Object.fromEntries(threads.map((thread) => [thread.service, { url: serviceUrls[thread.service] }])),
    threadHeapUsed: async (heapOptions) => (await Promise.all(threads.map((thread) => thread.heapUsed(heapOptions)))).reduce((sum, used) => sum + used, 0),
    bus,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    stop: stopAll,
  };
}

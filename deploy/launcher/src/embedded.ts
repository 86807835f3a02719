import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openBus, type Bus } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import { createLogger, lineWriterOf } from '@vaultline/logger';
import { generateApiKey } from '@vaultline/auth';
import type { ServiceApp, ServiceName, ServiceRuntime } from '@vaultline/http';
import { buildRuntime, generateServiceKeys, listen, loadRuntimeConfig, storeUrlFor, type Listening } from '@vaultline/runtime';
import { serviceFactories, startOrder } from './service-registry';
import { openServiceThread, type ServiceThread, type ServiceThreadHooks } from './service-thread/service-thread';
import type { ServiceThreadConfig } from './service-thread/service-thread.protocol';
import { threadedServicesOf, type EarlyServiceThreads } from './service-thread/early-threads';

export interface EmbeddedOptions {
  /** Where the SQLite files live (DATA_DIR); default ./data. */
  dataDir?: string;
  /** The gateway's port (PORT); 0 picks a free one. */
  port?: number;
  host?: string;
  /** Extra environment for the services, over process.env. */
  env?: Record<string, string>;
  /**
   * A service thread died on its own (an uncaught error in its service). Logged at fatal level in any
   * case; main-embedded then stops the system and exits non-zero, as an uncaught error on the main
   * thread would end the process.
   */
  onServiceThreadFailure?: (error: Error) => void;
  /** Service threads main-embedded opened before loading the system (see early-threads.ts); those named in EMBEDDED_SERVICE_THREADS are used. */
  earlyThreads?: EarlyServiceThreads;
}

export interface EmbeddedSystem {
  /** The gateway's base URL. */
  baseUrl: string;
  bootstrapApiKey: string;
  adminApiKey: string;
  /** The services on the main thread (the others are in `threads`). */
  services: Partial<Record<ServiceName, { app: ServiceApp; runtime: ServiceRuntime; url: string }>>;
  /** The services running on a worker thread of their own (EMBEDDED_SERVICE_THREADS), with their URLs. */
  threads: Partial<Record<ServiceName, { url: string }>>;
  /** The used heap of those threads together (each has its own V8 heap); after a full gc when asked. */
  threadHeapUsed(options?: { gc?: boolean }): Promise<number>;
  bus: Bus;
  stop(): Promise<void>;
}

/**
 * The embedded profile: all six services in this process, each on its own loopback port behind the
 * gateway (which hands merchant requests to them in-process), an SQLite-backed in-process bus, an
 * SQLite file per service under DATA_DIR and an in-process TTL store. A service that offers an
 * internal API as an object (the vault's detokenization) is called directly by the services started
 * after it; other service-to-service calls use the loopback ports. Services named in
 * EMBEDDED_SERVICE_THREADS (the importer by default) run on a worker thread of their own, with their
 * own connections to their SQLite file and to the bus file; the gateway relays merchant requests to
 * them by message and their in-process APIs are called across the same port: their work uses the
 * second core. Nothing to install; data survives a restart.
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
  // A newcomer needs a key and an admin key at once; generated ones are printed by main-embedded.
  env.BOOTSTRAP_API_KEY ??= generateApiKey('test');
  env.ADMIN_API_KEY ??= generateApiKey('test').replace('sk_test_', 'admin_');
  env.DEV_KEYS_IN_DATA_DIR ??= 'true'; // development profile: generated keys stay in DATA_DIR (the vault warns); 'false' puts them in KEYS_DIR

  const log = createLogger({ service: 'launcher', level: config.LOG_LEVEL });
  const busUrl = config.BUS_URL ?? `sqlite:${dataDir}/bus.db`;
  const bus = await openBus(busUrl, { logger: log });
  const ttl = await openTtlStore(config.TTL_URL ?? 'memory://');
  const keys = generateServiceKeys();
  // Threads share the bus through its file: with another bus every service stays on the main thread.
  const threaded = threadedServicesOf(env);

  const servers = {} as Record<ServiceName, Listening>;
  const threads = {} as Partial<Record<ServiceName, ServiceThread>>;
  const serviceUrls = {} as Record<ServiceName, string>;
  const threadEnv = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const threadConfigOf = (service: ServiceName): ServiceThreadConfig => ({
    env: threadEnv,
    storeUrl: storeUrlFor(config, service, `sqlite:${dataDir}/{service}.db`),
    busUrl,
    ttlUrl: config.TTL_URL ?? 'memory://',
    logLevel: config.LOG_LEVEL,
    privateKeyPem: keys.privateKeys[service],
    trustedPublicKeys: keys.publicKeys,
  });
  const threadHooks: ServiceThreadHooks = {
    writeLogLine: lineWriterOf(log),
    onFailure: (error) => {
      log.fatal({ err: error }, 'service thread failed');
      options.onServiceThreadFailure?.(error);
    },
  };
  // Threads load their service's modules on the second core while this thread starts the others
  // (main-embedded opens them even earlier, before this module is loaded).
  options.earlyThreads?.attach(threadHooks);
  const openings = threaded.map((service) =>
    (options.earlyThreads?.take(service) ?? openServiceThread(service, threadHooks)).then((thread) => {
      threads[service] = thread;
      serviceUrls[service] = thread.url;
    }),
  );
  await options.earlyThreads?.stopUntaken();
  try {
    for (const service of startOrder) {
      if (threaded.includes(service)) continue;
      servers[service] = service === 'gateway' ? await listen(config.HOST, config.PORT) : await listen('127.0.0.1', 0);
      serviceUrls[service] = servers[service].url;
    }
    const opened = await Promise.allSettled(openings);
    const failed = opened.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await Promise.allSettled(openings);
    for (const thread of Object.values(threads)) await thread.stop().catch(() => undefined);
    for (const server of Object.values(servers)) await server.close();
    throw error;
  }
  const publicBaseUrl = config.PUBLIC_BASE_URL ?? `http://localhost:${new URL(servers.gateway.url).port}`;
  env.PUBLIC_BASE_URL ??= publicBaseUrl;

  const services = {} as EmbeddedSystem['services'];
  // The gateway (started last) hands merchant requests to these apps directly, not over loopback.
  const inProcessApps: NonNullable<ServiceRuntime['inProcessApps']> = {};
  // Services call the internal APIs of those started before them directly (forwarder → vault detokenize).
  const inProcessApis: NonNullable<ServiceRuntime['inProcessApis']> = {};
  // The services on a thread of their own: the gateway relays merchant requests to them by message.
  const threadedApps: NonNullable<ServiceRuntime['threadedApps']> = {};
  const started: ServiceApp[] = [];
  try {
    for (const service of startOrder) {
      const thread = threads[service];
      if (thread) {
        const { channel, apis } = await thread.start(threadConfigOf(service), serviceUrls, publicBaseUrl);
        threadedApps[service] = channel;
        Object.assign(inProcessApis, apis);
        continue;
      }
      const runtime = await buildRuntime({
        service,
        storeUrl: storeUrlFor(config, service, `sqlite:${dataDir}/{service}.db`),
        bus,
        ttl,
        logLevel: config.LOG_LEVEL,
        privateKeyPem: keys.privateKeys[service],
        trustedPublicKeys: keys.publicKeys,
        serviceUrls,
        publicBaseUrl,
        inProcessApps,
        inProcessApis,
        threadedApps,
      });
      const app = serviceFactories[service](runtime, env);
      await app.start();
      started.push(app);
      servers[service].handle(app.http);
      inProcessApps[service] = app.http;
      Object.assign(inProcessApis, app.exposedApis);
      services[service] = { app, runtime, url: servers[service].url };
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  async function stopAll(): Promise<void> {
    await servers.gateway?.close();
    for (const thread of Object.values(threads)) await thread.stop().catch((e: unknown) => log.error({ err: e, service: thread.service }, 'stop failed'));
    for (const app of [...started].reverse()) await app.stop().catch((e) => log.error({ err: e }, 'stop failed'));
    for (const service of startOrder) if (service !== 'gateway') await servers[service]?.close();
    for (const { runtime } of Object.values(services)) await runtime.store.close();
    await bus.close();
    await ttl.close();
  }

  return {
    baseUrl: servers.gateway.url,
    bootstrapApiKey: env.BOOTSTRAP_API_KEY,
    adminApiKey: env.ADMIN_API_KEY,
    services,
    threads: Object.fromEntries(Object.entries(threads).map(([service, thread]) => [service, { url: thread.url }])),
    threadHeapUsed: async (options) => (await Promise.all(Object.values(threads).map((thread) => thread.heapUsed(options)))).reduce((sum, used) => sum + used, 0),
    bus,
    stop: stopAll,
  };
}

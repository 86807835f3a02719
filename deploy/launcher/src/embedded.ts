import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openBus, type Bus } from '@vaultline/bus';
import { openTtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import { generateApiKey } from '@vaultline/auth';
import type { ServiceApp, ServiceName, ServiceRuntime } from '@vaultline/http';
import { buildRuntime, generateServiceKeys, listen, loadRuntimeConfig, storeUrlFor, type Listening } from '@vaultline/runtime';
import { serviceFactories, startOrder } from './service-registry';

export interface EmbeddedOptions {
  /** Where the SQLite files live (DATA_DIR); default ./data. */
  dataDir?: string;
  /** The gateway's port (PORT); 0 picks a free one. */
  port?: number;
  host?: string;
  /** Extra environment for the services, over process.env. */
  env?: Record<string, string>;
}

export interface EmbeddedSystem {
  /** The gateway's base URL. */
  baseUrl: string;
  bootstrapApiKey: string;
  adminApiKey: string;
  services: Record<ServiceName, { app: ServiceApp; runtime: ServiceRuntime; url: string }>;
  bus: Bus;
  stop(): Promise<void>;
}

/**
 * The embedded profile: all six services in this process, each on its own loopback port behind the
 * gateway (which hands merchant requests to them in-process), an SQLite-backed in-process bus, an
 * SQLite file per service under DATA_DIR and an in-process TTL store. A service that offers an
 * internal API as an object (the vault's detokenization) is called directly by the services started
 * after it; other service-to-service calls use the loopback ports. Nothing to install; data survives
 * a restart.
 */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedSystem> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  if (options.port !== undefined) env.PORT = String(options.port);
  if (options.host) env.HOST = options.host;
  const config = loadRuntimeConfig(env);
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  env.DATA_DIR = dataDir;
  // A newcomer needs a key and an admin key at once; generated ones are printed by main-embedded.
  env.BOOTSTRAP_API_KEY ??= generateApiKey('test');
  env.ADMIN_API_KEY ??= generateApiKey('test').replace('sk_test_', 'admin_');

  const log = createLogger({ service: 'launcher', level: config.LOG_LEVEL });
  const bus = await openBus(config.BUS_URL ?? `sqlite:${dataDir}/bus.db`, { logger: log });
  const ttl = await openTtlStore(config.TTL_URL ?? 'memory://');
  const keys = generateServiceKeys();

  const servers = {} as Record<ServiceName, Listening>;
  for (const service of startOrder) {
    servers[service] = service === 'gateway' ? await listen(config.HOST, config.PORT) : await listen('127.0.0.1', 0);
  }
  const serviceUrls = Object.fromEntries(startOrder.map((s) => [s, servers[s].url])) as Record<ServiceName, string>;
  const publicBaseUrl = config.PUBLIC_BASE_URL ?? `http://localhost:${new URL(servers.gateway.url).port}`;
  env.PUBLIC_BASE_URL ??= publicBaseUrl;

  const services = {} as EmbeddedSystem['services'];
  // The gateway (started last) hands merchant requests to these apps directly, not over loopback.
  const inProcessApps: NonNullable<ServiceRuntime['inProcessApps']> = {};
  // Services call the internal APIs of those started before them directly (forwarder → vault detokenize).
  const inProcessApis: NonNullable<ServiceRuntime['inProcessApis']> = {};
  const started: ServiceApp[] = [];
  try {
    for (const service of startOrder) {
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
    bus,
    stop: stopAll,
  };
}

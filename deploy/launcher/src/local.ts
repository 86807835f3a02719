import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { freePort } from '@vaultline/core';
import { generateServiceKeys, idempotencyKeysOf, loadRuntimeConfig, serviceUrlVariable } from '@vaultline/runtime';
import type { ServiceName } from '@vaultline/runtime';
import { startOrder } from './service-registry';
import { provideDevelopmentCredentials } from './generated-credentials';
import { generateDevCertificates } from './dev-ca';
import { startTcpBalancer, type TcpBalancer } from './tcp-balancer';

export interface LocalOptions {
  dataDir?: string;
  /** The gateway's port; the other services take the next five. 0: every port (Redis's too) is a free one. */
  port?: number;
  /** An existing Redis; when absent a redis-server is started on redisPort for the run. */
  redisUrl?: string;
  redisPort?: number;
  env?: Record<string, string>;
  /** Where the children's output goes: this process's (default), nowhere, or `$DATA_DIR/logs/<service>.log`. */
  stdio?: 'inherit' | 'ignore' | 'files';
  /**
   * Mutual TLS between the services (default true): a development CA and a certificate per service are
   * generated under `$DATA_DIR/internal-tls` (needs the openssl command), and every internal port takes
   * only callers with one of them. false: plain HTTP on loopback.
   */
  internalMtls?: boolean;
  /**
   * Processes per service (default 1; not the gateway): several replicas of a service share its store and
   * are reached, as behind a Kubernetes Service, through a TCP balancer on the service's port (each on a
   * port of its own, with /metrics on its own port). The Kafka profile's fault test runs two orchestrators
   * and two notifiers.
   */
  replicas?: Partial<Record<ServiceName, number>>;
}

export interface LocalSystem {
  baseUrl: string;
  bootstrapApiKey: string;
  adminApiKey: string;
  /** The file holding the keys generated because BOOTSTRAP_API_KEY or ADMIN_API_KEY was not set. */
  generatedCredentialsFile?: string;
  /** Where each service is reached by the others (the gateway: its internal listener); https with mutual TLS. */
  serviceUrls: Record<ServiceName, string>;
  /** The development CA and the launcher's own client certificate, when the services use mutual TLS. */
  internalTls?: { caFile: string; certFile: string; keyFile: string };
  /** Each service's GET /metrics (METRICS_PORT: the gateway's port + 10, + 11 … in start order; free ones with port 0). */
  metricsUrls: Record<ServiceName, string>;
  /** The process of a service (its replica `replica`, from 0; tests send it signals). */
  pidOf(service: ServiceName, replica?: number): number | undefined;
  /** Sends SIGTERM to one service (replica) and waits for it to drain and exit; resolves with its exit code. */
  terminate(service: ServiceName, replica?: number): Promise<number | null>;
  /** Starts a service (replica) that was stopped (or terminated) again; resolves once it is healthy. */
  start(service: ServiceName, replica?: number): Promise<void>;
  /** Kills one service process and starts it again (tests of restarts). */
  restart(service: ServiceName, replica?: number): Promise<void>;
  /** SIGKILL to one service (replica) (a crash: no drain, nothing flushed) and waits for the process to be gone; start() brings it back. */
  kill(service: ServiceName, replica?: number): Promise<void>;
  /** Each replica's GET /metrics, for the services with several. */
  replicaMetricsUrls: Partial<Record<ServiceName, string[]>>;
  stop(): Promise<void>;
}

const repoRoot = resolve(__dirname, '../../..');

/**
 * The local profile: a process per service on this machine, Redis Streams as the bus, an SQLite
 * file per service under DATA_DIR, Redis for TTL data. One command starts it all; stop() (or
 * Ctrl-C on main-local) stops every process cleanly.
 */
export async function startLocal(options: LocalOptions = {}): Promise<LocalSystem> {
  const autoPorts = (options.port ?? Number(process.env.PORT ?? 8080)) === 0;
  // With ports picked here (port 0), another process on the machine may bind one of them before the
  // service that was given it starts (parallel test workers): start again on fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startLocalOnce(options);
    } catch (error) {
      if (!autoPorts || attempt === 3 || !String((error as Error).message).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startLocalOnce(options: LocalOptions): Promise<LocalSystem> {
  const dataDir = resolve(options.dataDir ?? process.env.DATA_DIR ?? './data/local');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const requestedPort = options.port ?? Number(process.env.PORT ?? 8080);
  const autoPorts = requestedPort === 0;
  const port = autoPorts ? await freePort() : requestedPort;
  let redis: ChildProcess | undefined;
  let redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  if (!redisUrl) {
    const redisPort = options.redisPort ?? (autoPorts ? await freePort() : port + 99);
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dataDir, '--appendonly', 'yes', '--save', ''], {
      stdio: 'ignore',
    });
    redis.once('error', (error) => {
      throw new Error(`cannot start redis-server (apt-get install redis-server, or set REDIS_URL): ${error.message}`);
    });
    await waitForPort(redisPort);
    redisUrl = `redis://127.0.0.1:${redisPort}`;
  }

  const keys = generateServiceKeys();
  const ports = {} as Record<ServiceName, number>;
  for (const [i, service] of startOrder.entries()) {
    ports[service] = service === 'gateway' ? port : autoPorts ? await freePort() : port + 1 + i;
  }
  // Every process serves /metrics on a port of its own (the standalone default, 9464, would collide here).
  const metricsPorts = {} as Record<ServiceName, number>;
  for (const [i, service] of startOrder.entries()) metricsPorts[service] = autoPorts ? await freePort() : port + 10 + i;
  // Replicas: replica 0 keeps the service's ports when it is alone; with several, each has ports of its own and
  // the service's port is the balancer's.
  const replicaCount = (service: ServiceName) => Math.max(1, Math.floor(options.replicas?.[service] ?? 1));
  if (replicaCount('gateway') > 1) throw new Error('the gateway runs as one process in the local profiles');
  const replicaPorts = {} as Record<ServiceName, Array<{ port: number; metricsPort: number }>>;
  for (const [i, service] of startOrder.entries()) {
    const count = replicaCount(service);
    replicaPorts[service] = [];
    for (let replica = 0; replica < count; replica++) {
      if (count === 1) replicaPorts[service].push({ port: ports[service], metricsPort: metricsPorts[service] });
      else
        replicaPorts[service].push(
          autoPorts
            ? { port: await freePort(), metricsPort: await freePort() }
            : { port: port + 20 + 10 * replica + i, metricsPort: port + 50 + 10 * replica + i },
        );
    }
  }
  // The gateway's internal API listens apart from its public port; the other services know it by that one.
  const gatewayInternalPort = autoPorts ? await freePort() : port + 1 + startOrder.length;
  const mtls = options.internalMtls ?? true;
  const certificates = mtls ? generateDevCertificates(resolve(dataDir, 'internal-tls'), [...startOrder, 'launcher']) : undefined;
  const launcherTls = certificates ? { caFile: certificates.caFile, ...certificates.services.launcher! } : undefined;
  const urlOf = (s: ServiceName) => `${mtls ? 'https' : 'http'}://127.0.0.1:${s === 'gateway' ? gatewayInternalPort : ports[s]}`;
  const urls = Object.fromEntries(startOrder.map((s) => [serviceUrlVariable(s), urlOf(s)]));
  const keyEnv: NodeJS.ProcessEnv = {
    BOOTSTRAP_API_KEY: options.env?.BOOTSTRAP_API_KEY ?? process.env.BOOTSTRAP_API_KEY,
    ADMIN_API_KEY: options.env?.ADMIN_API_KEY ?? process.env.ADMIN_API_KEY,
  };
  const generatedCredentialsFile = provideDevelopmentCredentials(keyEnv, dataDir);
  const bootstrapApiKey = keyEnv.BOOTSTRAP_API_KEY!;
  const adminApiKey = keyEnv.ADMIN_API_KEY!;
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...urls,
    DATA_DIR: dataDir,
    BUS_URL: redisUrl,
    TTL_URL: redisUrl,
    STORE_URL: `sqlite:${dataDir}/{service}.db`,
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `${process.env.TLS_CERT_FILE ? 'https' : 'http'}://localhost:${port}`,
    INTERNAL_JWT_PUBLIC_KEYS: JSON.stringify(keys.publicKeys),
    BOOTSTRAP_API_KEY: bootstrapApiKey,
    ADMIN_API_KEY: adminApiKey,
    // One process per service and nothing routing around a stopping one: its unready delay would only
    // slow a stop down (the gateway waits out a restarting service's refused connections instead).
    SHUTDOWN_DELAY_SECONDS: process.env.SHUTDOWN_DELAY_SECONDS ?? '0',
    ...options.env,
  };
  // The HMAC key of the Idempotency-Key fingerprints, read or generated once where the services keep their
  // generated keys (or IDEMPOTENCY_FINGERPRINT_KEY as given) and handed to every service but the gateway:
  // the replicas of one service share it, as production's Secrets do, and none races another to create it.
  const idempotencyFingerprintKey = Buffer.from(idempotencyKeysOf(loadRuntimeConfig(baseEnv)).fingerprintKey).toString('base64');
  const children = new Map<string, ChildProcess>();
  const childKey = (service: ServiceName, replica = 0) => `${service}#${replica}`;

  const logFile = (service: ServiceName, replica = 0) => resolve(dataDir, 'logs', replica === 0 ? `${service}.log` : `${service}-${replica}.log`);
  const logTail = (service: ServiceName, replica = 0) => {
    if (options.stdio !== 'files' || !existsSync(logFile(service, replica))) return '';
    return `; last lines of ${logFile(service, replica)}:\n${readFileSync(logFile(service, replica), 'utf8').trim().split('\n').slice(-15).join('\n')}`;
  };
  const startService = async (service: ServiceName, replica = 0) => {
    let output: 'inherit' | 'ignore' | number = options.stdio === 'ignore' ? 'ignore' : 'inherit';
    if (options.stdio === 'files') {
      mkdirSync(resolve(dataDir, 'logs'), { recursive: true });
      output = openSync(logFile(service, replica), 'a');
    }
    const own = replicaPorts[service][replica];
    if (!own) throw new Error(`${service} has no replica ${replica}`);
    // TLS_CERT_FILE/TLS_KEY_FILE are the gateway's edge certificate: the others serve plain HTTP on loopback.
    const { TLS_CERT_FILE, TLS_KEY_FILE, ...withoutTls } = baseEnv;
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, `services/${service}/src/main.ts`)], {
      cwd: repoRoot,
      env: {
        ...withoutTls,
        ...(service === 'gateway' && TLS_CERT_FILE && TLS_KEY_FILE ? { TLS_CERT_FILE, TLS_KEY_FILE } : {}),
        ...(certificates
          ? {
              INTERNAL_TLS_CA_FILE: certificates.caFile,
              INTERNAL_TLS_CERT_FILE: certificates.services[service]!.certFile,
              INTERNAL_TLS_KEY_FILE: certificates.services[service]!.keyFile,
            }
          : {}),
        PORT: String(own.port),
        METRICS_PORT: String(own.metricsPort),
        // Names the process to its bus (a Redis consumer name) and in its logs.
        ...(replicaCount(service) > 1 ? { HOSTNAME: `${service}-${replica}` } : {}),
        HOST: service === 'gateway' ? (baseEnv.HOST ?? '127.0.0.1') : '127.0.0.1',
        // Whether the service as a whole is reachable from other machines (the notifier's loopback receivers).
        GATEWAY_HOST: baseEnv.HOST ?? '127.0.0.1',
        ...(service === 'gateway' ? { GATEWAY_INTERNAL_HOST: '127.0.0.1', GATEWAY_INTERNAL_PORT: String(gatewayInternalPort) } : {}),
        INTERNAL_JWT_PRIVATE_KEY: keys.privateKeys[service],
        ...(service === 'gateway' ? {} : { IDEMPOTENCY_FINGERPRINT_KEY: idempotencyFingerprintKey }),
      },
      stdio: ['ignore', output, output],
    });
    if (typeof output === 'number') closeSync(output);
    children.set(childKey(service, replica), child);
    const direct = replicaCount(service) > 1 ? `${mtls ? 'https' : 'http'}://127.0.0.1:${own.port}` : urlOf(service);
    try {
      // The gateway's internal listener answers /health too, in plain HTTP whether or not the edge has TLS.
      await waitForHealth(`${direct}/health`, child, service, launcherTls);
    } catch (error) {
      throw new Error(`${(error as Error).message}${logTail(service, replica)}`);
    }
  };
  const terminate = (service: ServiceName, replica = 0) =>
    new Promise<number | null>((done) => {
      const child = children.get(childKey(service, replica));
      if (!child || child.exitCode !== null || child.signalCode !== null) return done(child?.exitCode ?? null);
      child.once('exit', (code) => done(code));
      child.kill('SIGTERM');
    });
  const kill = (service: ServiceName, replica = 0) =>
    new Promise<void>((done) => {
      const child = children.get(childKey(service, replica));
      if (!child || child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  const stopService = async (service: ServiceName, replica = 0) => {
    await terminate(service, replica);
  };
  const replicasOf = (service: ServiceName) => replicaPorts[service].map((_, replica) => replica);
  const balancers: TcpBalancer[] = [];

  const stop = async () => {
    for (const service of [...startOrder].reverse()) await Promise.all(replicasOf(service).map((replica) => stopService(service, replica)));
    await Promise.all(balancers.map((balancer) => balancer.close()));
    if (redis && redis.exitCode === null) {
      await new Promise<void>((done) => {
        redis!.once('exit', () => done());
        redis!.kill('SIGTERM');
      });
    }
  };

  try {
    for (const service of startOrder.filter((s) => replicaCount(s) > 1)) {
      balancers.push(await startTcpBalancer('127.0.0.1', ports[service], () => replicaPorts[service].map((own) => own.port)));
    }
    await Promise.all(startOrder.flatMap((service) => replicasOf(service).map((replica) => startService(service, replica))));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: `${baseEnv.TLS_CERT_FILE && baseEnv.TLS_KEY_FILE ? 'https' : 'http'}://127.0.0.1:${port}`,
    bootstrapApiKey,
    adminApiKey,
    ...(generatedCredentialsFile ? { generatedCredentialsFile } : {}),
    serviceUrls: Object.fromEntries(startOrder.map((s) => [s, urlOf(s)])) as Record<ServiceName, string>,
    ...(launcherTls ? { internalTls: launcherTls } : {}),
    metricsUrls: Object.fromEntries(startOrder.map((s) => [s, `http://127.0.0.1:${replicaPorts[s][0]!.metricsPort}/metrics`])) as Record<ServiceName, string>,
    replicaMetricsUrls: Object.fromEntries(
      startOrder.filter((s) => replicaCount(s) > 1).map((s) => [s, replicaPorts[s].map((own) => `http://127.0.0.1:${own.metricsPort}/metrics`)]),
    ),
    pidOf: (service, replica = 0) => children.get(childKey(service, replica))?.pid,
    terminate,
    kill,
    start: startService,
    restart: async (service, replica = 0) => {
      await stopService(service, replica);
      await startService(service, replica);
    },
    stop,
  };
}

/** One GET, true on a 2xx; over mutual TLS with the launcher's certificate when given. */
function answersOk(url: string, tls?: { ca: Buffer; cert: Buffer; key: Buffer }): Promise<boolean> {
  return new Promise((done) => {
    const request = (tls ? httpsGet : httpGet)(url, tls ? { ...tls } : {}, (response) => {
      response.resume();
      done((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300);
    });
    request.once('error', () => done(false));
    request.setTimeout(2_000, () => request.destroy());
  });
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  service: string,
  tls?: { caFile: string; certFile: string; keyFile: string },
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const clientTls = tls ? { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) } : undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${service} exited with code ${child.exitCode} during start`);
    if (await answersOk(url, clientTls)) return;
    if (Date.now() > deadline) throw new Error(`${service} not healthy after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

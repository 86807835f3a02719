import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { envBoolean, envDurationMs, generatedKeyFile, generatedKeysEnv, loadConfig, loadKey } from '@vaultline/config';
import type { KafkaNaming, KafkaSecurity } from '@vaultline/bus';
import { parseEgressProxy } from '@vaultline/egress';
import { SERVICE_NAMES, type IdempotencyKeys, type ServiceName } from './service-runtime';

/**
 * The configuration every process reads to open its adapters. Which adapters it names decides the
 * profile: production (kafka://, mongodb://, redis://), local (redis:// bus, sqlite: stores),
 * embedded (sqlite: bus and stores in one process, memory:// TTL store).
 */
/**
 * TLS_CERT_FILE and TLS_KEY_FILE (PEM): with both, the listener on PORT serves HTTPS only. One without
 * the other is a mistake that would otherwise fall back to plain HTTP, so it stops the start.
 */
export function requireTlsPair(config: { TLS_CERT_FILE?: string | undefined; TLS_KEY_FILE?: string | undefined }, ctx: z.RefinementCtx): void {
  if (Boolean(config.TLS_CERT_FILE) === Boolean(config.TLS_KEY_FILE)) return;
  const [missing, given] = config.TLS_CERT_FILE ? ['TLS_KEY_FILE', 'TLS_CERT_FILE'] : ['TLS_CERT_FILE', 'TLS_KEY_FILE'];
  ctx.addIssue({ code: 'custom', path: [missing], message: `is required when ${given} is set (both, or neither)` });
}

/** Kafka's legal characters for topic and group names (and what a prefix of them may hold). */
const kafkaName = (variable: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, `${variable} may hold only letters, digits, '.', '_' and '-'`)
    .max(100);

export const runtimeConfigSchema = z.object({
  /**
   * production: the process refuses to start without encryption on every link (production-security.ts:
   * internal mutual TLS, Kafka TLS and SASL, MongoDB and Redis TLS, the gateway's edge TLS), naming what is
   * missing. docker-compose.yml and the Helm chart set it; development and tests run without.
   */
  VAULTLINE_ENV: z.enum(['development', 'production']).default('development'),
  /**
   * The gateway's merchant port is plain HTTP on purpose: a proxy in front terminates TLS (and TRUST_PROXY
   * names it). Only this makes a production gateway without TLS_CERT_FILE start.
   */
  EDGE_TLS_TERMINATED_BY_PROXY: envBoolean().default(false),
  /** DATA_DIR, and KEYS_DIR and DEV_KEYS_IN_DATA_DIR: where generated keys are kept (libs/config generatedKeyFile). */
  ...generatedKeysEnv,
  /** memory:// | sqlite:<file> | redis://host:port | kafka://broker:9092,broker2:9092 */
  BUS_URL: z.string().min(1).optional(),
  /** A store URL for every service; `{service}` is replaced by the service name (a database or file each). */
  STORE_URL: z.string().min(1).optional(),
  /** memory:// | redis://host:port */
  TTL_URL: z.string().min(1).optional(),
  /**
   * Production: this service's MongoDB URL with its credentials and TLS options (usually MONGO_URL_FILE,
   * a mounted Secret). Takes the place of STORE_URL; `{service}` is replaced as there.
   */
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URL')
    .optional(),
  /** Production: the Redis URL (rediss:// for TLS) with its password (usually REDIS_URL_FILE). Takes the place of TTL_URL. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** rediss:// with a private CA: the CA's PEM. */
  REDIS_TLS_CA_FILE: z.string().min(1).optional(),
  /** TLS to the Kafka brokers, trusting this CA (PEM). */
  KAFKA_SSL_CA_FILE: z.string().min(1).optional(),
  /** TLS to the Kafka brokers with the system's CAs (a broker with a public certificate); implied by KAFKA_SSL_CA_FILE. */
  KAFKA_SSL: envBoolean().default(false),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  /** Usually KAFKA_SASL_PASSWORD_FILE. */
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  /**
   * Put before every Kafka topic and consumer group this service uses (`staging.` → `staging.payments.payments`),
   * so that environments share a cluster. Empty by default.
   */
  KAFKA_TOPIC_PREFIX: kafkaName('KAFKA_TOPIC_PREFIX').default(''),
  /** Put before every consumer group instead of KAFKA_TOPIC_PREFIX (a platform's own naming of groups). Changing it renames the groups. */
  KAFKA_GROUP_PREFIX: kafkaName('KAFKA_GROUP_PREFIX').optional(),
  /** The client id the brokers see (their logs, quotas, request metrics); by default the service's name. */
  KAFKA_CLIENT_ID: kafkaName('KAFKA_CLIENT_ID').pipe(z.string().min(1)).optional(),
  /**
   * true (the default, for development): a service creates the topics it misses, shaped as deploy/kafka/topics.yaml.
   * false (production: topics are provisioned from that file): it creates none, and a missing topic stops its start.
   */
  KAFKA_CREATE_TOPICS: envBoolean().default(true),
  /** Processed-event marks (consumers' duplicate detection) are kept this long: longer than any redelivery window. */
  PROCESSED_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).default(14),
  /**
   * SIGTERM: /ready answers 503 at once, and the service keeps serving this long (load balancers and
   * endpoints stop sending it traffic) before it drains. Kubernetes' preStop sleeps as long.
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /**
   * /ready fails on the bus only once a subscription has not been consuming for this long; a consumer
   * that kafkajs restarts by itself never counts. A short broker outage then does not empty every Service.
   */
  BUS_UNHEALTHY_AFTER_SECONDS: z.coerce.number().int().min(0).default(30),
  /**
   * A bus handler that keeps failing (a dependency down) is tried this many times, waiting BUS_RETRY_BASE_DELAY_MS
   * doubling to BUS_RETRY_MAX_DELAY_SECONDS (each wait jittered between half and all of it), before its message is
   * set aside as a dead letter (`vaultline ops dead-letters`). Defaults: 12 attempts, 200 ms to 60 s: two to four
   * minutes. On Kafka a message being retried holds back its partition meanwhile (the key's order is kept).
   */
  BUS_RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
  BUS_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(1).max(60_000).default(200),
  BUS_RETRY_MAX_DELAY_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /**
   * /ready fails on the store (MongoDB, SQLite) or the TTL store (Redis) only once their pings have been failing
   * for this long (0: at the first failed ping). A MongoDB election or a Redis failover (about 10 s) then does
   * not take every pod of every service out of its Service at once; requests that need them fail meanwhile.
   */
  STORE_UNHEALTHY_AFTER_SECONDS: z.coerce.number().int().min(0).default(30),
  PUBLIC_BASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Loopback unless asked: a container sets HOST=0.0.0.0 (deploy/Dockerfile, docker-compose.yml). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The gateway's internal API (the importer mints import keys there): a listener of its own, never published. */
  GATEWAY_INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The /metrics listener (Prometheus text), never the merchant port. A number (0: any free port) or
   * `off`. Unset: 9464 for a standalone service, off for the embedded profile (metricsPortOf).
   */
  METRICS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
  /** Where /metrics listens: HOST for a standalone service (a container sets 0.0.0.0), loopback in the embedded profile. */
  METRICS_HOST: z.string().min(1).optional(),
  /** SIGTERM: how long draining may take (stop accepting, finish requests and batches, flush the outbox) before the process exits anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  /** How long the answer to a POST with an Idempotency-Key is kept and replayed by the service that served it (24 h). */
  IDEMPOTENCY_KEY_TTL: envDurationMs()
    .refine((ms) => ms > 0, { message: 'must be longer than 0' })
    .default(24 * 60 * 60 * 1000),
  /**
   * The server key (base64, 32 bytes) of the HMAC that fingerprints a request sent with an Idempotency-Key
   * (the body of POST /tokens holds card data: its fingerprint is never a plain hash). Production sets it
   * per service (the same value for every replica of one service, which share the records); unset, it is
   * generated once into KEYS_DIR/idempotency-fingerprint.key.
   */
  IDEMPOTENCY_FINGERPRINT_KEY: z.string().min(1).optional(),
  /**
   * http://host:port of an HTTP CONNECT egress proxy: every call out to the internet (processors, merchants'
   * destinations, import providers, webhook endpoints) goes through it, after the same address checks; the
   * network then lets those pods reach the proxy only, and the proxy allows destinations by name.
   */
  EGRESS_PROXY_URL: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseEgressProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  OTEL_TRACES_EXPORTER: z.enum(['none', 'console', 'otlp']).default('none'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** Kafka SASL needs a mechanism, a user and a password together. */
function requireKafkaSasl(
  config: { KAFKA_SASL_MECHANISM?: string | undefined; KAFKA_SASL_USERNAME?: string | undefined; KAFKA_SASL_PASSWORD?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const parts = {
    KAFKA_SASL_MECHANISM: config.KAFKA_SASL_MECHANISM,
    KAFKA_SASL_USERNAME: config.KAFKA_SASL_USERNAME,
    KAFKA_SASL_PASSWORD: config.KAFKA_SASL_PASSWORD,
  };
  const given = Object.values(parts).filter(Boolean).length;
  if (given === 0 || given === 3) return;
  for (const [name, value] of Object.entries(parts))
    if (!value)
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'is required with the other KAFKA_SASL_ variables (KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE)',
      });
}

export function loadRuntimeConfig(env: NodeJS.ProcessEnv): RuntimeConfig {
  return loadConfig(
    runtimeConfigSchema.superRefine((config, ctx) => {
      requireTlsPair(config, ctx);
      requireKafkaSasl(config, ctx);
    }),
    env,
  );
}

/** TLS and SASL towards Kafka from KAFKA_SSL_CA_FILE, KAFKA_SSL and KAFKA_SASL_* (undefined: plaintext). */
export function kafkaSecurityOf(config: RuntimeConfig): KafkaSecurity | undefined {
  const ssl = config.KAFKA_SSL_CA_FILE ? { ca: readFileSync(config.KAFKA_SSL_CA_FILE) } : config.KAFKA_SSL ? (true as const) : undefined;
  const sasl =
    config.KAFKA_SASL_MECHANISM && config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
      ? { mechanism: config.KAFKA_SASL_MECHANISM, username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
      : undefined;
  if (!ssl && !sasl) return undefined;
  return { ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) };
}

export const IDEMPOTENCY_FINGERPRINT_KEY_FILE = 'idempotency-fingerprint.key';

/** The Idempotency-Key settings every service's routes use: the fingerprints' server key (loadKey) and the retention. */
export function idempotencyKeysOf(config: RuntimeConfig): IdempotencyKeys {
  const fingerprintKey = loadKey({
    variable: 'IDEMPOTENCY_FINGERPRINT_KEY',
    value: config.IDEMPOTENCY_FINGERPRINT_KEY,
    file: generatedKeyFile(config, IDEMPOTENCY_FINGERPRINT_KEY_FILE).path,
  });
  return { fingerprintKey, retentionMs: config.IDEMPOTENCY_KEY_TTL };
}

/** Topic and group names and topic creation as KAFKA_TOPIC_PREFIX, KAFKA_GROUP_PREFIX, KAFKA_CLIENT_ID and KAFKA_CREATE_TOPICS say; the client id defaults to the service's name. */
export function kafkaNamingOf(config: RuntimeConfig, service: string): KafkaNaming {
  return {
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    groupPrefix: config.KAFKA_GROUP_PREFIX ?? config.KAFKA_TOPIC_PREFIX,
    clientId: config.KAFKA_CLIENT_ID ?? service,
    createTopics: config.KAFKA_CREATE_TOPICS,
  };
}

/** The TTL store's URL: REDIS_URL (production, from a Secret) or TTL_URL. */
export const ttlUrlOf = (config: RuntimeConfig): string | undefined => config.REDIS_URL ?? config.TTL_URL;

/** Processed-event marks' retention in milliseconds. */
export const processedRetentionOf = (config: RuntimeConfig) => ({ retentionMs: config.PROCESSED_EVENTS_RETENTION_DAYS * 86_400_000 });

/** The standalone default, which deploy/ (compose, Prometheus, Kubernetes) assumes. */
export const DEFAULT_METRICS_PORT = 9464;

/** The /metrics port to listen on, or null when off. */
export function metricsPortOf(config: RuntimeConfig, profileDefault: number | 'off'): number | null {
  const port = config.METRICS_PORT ?? profileDefault;
  return port === 'off' ? null : port;
}

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The certificate and key to serve PORT with, when TLS_CERT_FILE and TLS_KEY_FILE are set. */
export function tlsOf(config: RuntimeConfig): TlsFiles | undefined {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return undefined;
  return { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) };
}

export function storeUrlFor(config: RuntimeConfig, service: ServiceName, defaultTemplate: string): string {
  return (config.MONGO_URL ?? config.STORE_URL ?? defaultTemplate).replaceAll('{service}', service);
}

/** Env names of the other services' base URLs in the standalone processes: VAULT_URL, PAYMENT_ORCHESTRATOR_URL … */
export const serviceUrlVariable = (service: ServiceName): string => `${service.toUpperCase().replace(/-/g, '_')}_URL`;

export function serviceUrlsFromEnv(env: NodeJS.ProcessEnv): Record<ServiceName, string> {
  const urls = {} as Record<ServiceName, string>;
  const missing: string[] = [];
  for (const service of SERVICE_NAMES) {
    const value = env[serviceUrlVariable(service)];
    if (value) urls[service] = value.replace(/\/$/, '');
    else missing.push(serviceUrlVariable(service));
  }
  if (missing.length > 0) throw new Error(`missing configuration: ${missing.join(', ')} (base URLs of the other services)`);
  return urls;
}

/** BUS_RETRY_* as the runtime takes them (RuntimeParts.busRetry). */
export function busRetryOf(config: Pick<RuntimeConfig, 'BUS_RETRY_MAX_ATTEMPTS' | 'BUS_RETRY_BASE_DELAY_MS' | 'BUS_RETRY_MAX_DELAY_SECONDS'>) {
  return {
    maxAttempts: config.BUS_RETRY_MAX_ATTEMPTS,
    baseDelayMs: config.BUS_RETRY_BASE_DELAY_MS,
    maxDelayMs: Math.max(config.BUS_RETRY_BASE_DELAY_MS, config.BUS_RETRY_MAX_DELAY_SECONDS * 1000),
  };
}

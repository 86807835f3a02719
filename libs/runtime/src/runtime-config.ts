import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadConfig } from '@vaultline/config';
import { SERVICE_NAMES, type ServiceName } from './service-runtime';

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

export const runtimeConfigSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  /** memory:// | sqlite:<file> | redis://host:port | kafka://broker:9092,broker2:9092 */
  BUS_URL: z.string().min(1).optional(),
  /** A store URL for every service; `{service}` is replaced by the service name (a database or file each). */
  STORE_URL: z.string().min(1).optional(),
  /** memory:// | redis://host:port */
  TTL_URL: z.string().min(1).optional(),
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
  OTEL_TRACES_EXPORTER: z.enum(['none', 'console', 'otlp']).default('none'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export function loadRuntimeConfig(env: NodeJS.ProcessEnv): RuntimeConfig {
  return loadConfig(runtimeConfigSchema.superRefine(requireTlsPair), env);
}

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
  return (config.STORE_URL ?? defaultTemplate).replaceAll('{service}', service);
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

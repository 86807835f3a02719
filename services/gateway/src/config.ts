import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { envDurationMs, envPort, envUrl, loadConfig } from '@vaultline/config';
import { parseTrustProxy, type TrustProxy } from './http/client-address';
import { requireTlsPair } from '@vaultline/runtime';
import type { RateLimit } from './domain/rate-limit';
import { ADMIN_KEY_MIN_LENGTH } from './domain/operators';

/**
 * The gateway's configuration (the only file reading the environment).
 *
 * - ADMIN_API_KEY: enables the operator API (/admin/*) with header X-Admin-Key. Unset → /admin answers 404.
 *   At least 32 characters: a shorter one stops the start (a key that can be guessed online is worse than
 *   no admin API; the keys the gateway generates for operators have 38).
 * - ADMIN_REFUSALS_PER_MINUTE: refused admin requests (no key, a wrong key) per client address and minute;
 *   beyond it every admin request from the address answers 429 with Retry-After until its minute ends (10).
 * - AUDIT_RETENTION_DAYS: admin audit entries are deleted this long after they were written (400).
 * - BOOTSTRAP_API_KEY: development convenience — after start a merchant "Bootstrap merchant"
 *   (card_data_access true) owns exactly this key; idempotent across restarts. Do not set it in production.
 * - API_KEY_PEPPER: HMAC key for stored API-key hashes. When unset, one is generated on first start and kept
 *   in the gateway's own store — acceptable for development only: production must set it (from a secret
 *   store) so that a copy of the database alone does not allow offline guessing, and must never change it
 *   (every existing key would stop working).
 * - PUBLIC_BASE_URL: the externally visible base URL (servers[0] of /openapi.json).
 * - TRUST_PROXY: the proxies in front of the gateway trusted to name the client in X-Forwarded-For: a
 *   number of hops or their addresses/CIDRs (http/client-address.ts). Unset: none, the socket's peer is
 *   the client. Behind a load balancer it must be set, or every client shares the balancer's address
 *   (and its per-address limits).
 * - RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST: the token bucket per API key at the edge (100 per second,
 *   bursts of 200); an operator overrides both per merchant (PATCH /admin/merchants/{id} rate_limit).
 * - DASHBOARD_SESSION_IDLE_SECONDS, DASHBOARD_SESSION_MAX_SECONDS: a dashboard session ends after this long
 *   without a request (30 min), and this long after sign-in whatever the activity (12 h).
 * - DASHBOARD_SIGN_INS_PER_MINUTE: POST /dashboard/session attempts per client address and minute (60).
 * - DASHBOARD_DIST_DIR: the built dashboard served at /dashboard (default: packages/dashboard/dist of the
 *   repository the gateway runs from; a 503 page says so when it holds no index.html).
 * - TLS_CERT_FILE, TLS_KEY_FILE: PEM files; with both the gateway serves HTTPS only (the listener is made by
 *   libs/runtime). With TLS on, or a PUBLIC_BASE_URL in https, every answer carries Strict-Transport-Security.
 */
const BOOTSTRAP_KEY = /^sk_(test|live)_[A-Za-z0-9_]+$/;

export const gatewayConfigSchema = z.object({
  PORT: envPort().default(8080),
  ADMIN_API_KEY: z
    .string()
    .min(ADMIN_KEY_MIN_LENGTH, {
      message: `must be at least ${ADMIN_KEY_MIN_LENGTH} characters (a shorter key can be guessed online): generate one, e.g. admin_$(openssl rand -hex 24)`,
    })
    .optional(),
  ADMIN_REFUSALS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  BOOTSTRAP_API_KEY: z
    .string()
    .regex(BOOTSTRAP_KEY, { message: 'must start with sk_test_ or sk_live_ followed by letters, digits or underscores' })
    .min(24, { message: 'must be at least 24 characters' })
    .optional(),
  PUBLIC_BASE_URL: envUrl(['http:', 'https:']).optional(),
  API_KEY_PEPPER: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** How long the gateway waits for an upstream's response headers (the forwarder waits on destinations). */
  GATEWAY_UPSTREAM_TIMEOUT: envDurationMs().default(60_000),
  /**
   * How long a request waits for a service that refuses connections (restarting: nothing listens on its
   * port) before the gateway answers 503. A refused connection carried no request, so trying again is
   * safe for every method; a service being replaced then costs the merchant latency, not an error.
   */
  GATEWAY_UPSTREAM_CONNECT_RETRY: envDurationMs().default(10_000),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).default(200),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  DASHBOARD_SESSION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(30 * 60),
  DASHBOARD_SESSION_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(12 * 3600),
  DASHBOARD_SIGN_INS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  DASHBOARD_DIST_DIR: z.string().min(1).optional(),
});

/** packages/dashboard/dist of the repository this file is in (found by its pnpm-workspace.yaml), else under the working directory. */
function defaultDashboardDir(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, 'packages', 'dashboard', 'dist');
  }
  return resolve('packages', 'dashboard', 'dist');
}

export interface GatewayConfig {
  port: number;
  adminApiKey?: string;
  bootstrapApiKey?: string;
  publicBaseUrl?: string;
  apiKeyPepper?: string;
  upstreamTimeoutMs: number;
  /** GATEWAY_UPSTREAM_CONNECT_RETRY: how long refused connections to a service are tried again. */
  upstreamConnectRetryMs?: number;
  /** Largest request body accepted at the edge, in bytes (1 MB). */
  bodyLimitBytes: number;
  /** Who may name the client in X-Forwarded-For (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Requests per API key (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST), unless the merchant has its own. */
  rateLimit: RateLimit;
  /** TLS_CERT_FILE and TLS_KEY_FILE are set: the edge is served over HTTPS. */
  tls: boolean;
  /** Dashboard sessions end after idleSeconds without a request, and maxSeconds after sign-in. */
  dashboardSession: { idleSeconds: number; maxSeconds: number; signInsPerMinute: number };
  /** The built dashboard (DASHBOARD_DIST_DIR). */
  dashboardDir: string;
  /** Refused admin requests per client address and minute before 429 (ADMIN_REFUSALS_PER_MINUTE). */
  adminRefusalsPerMinute: number;
  /** Admin audit entries are deleted after this many days (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(gatewayConfigSchema.superRefine(requireTlsPair), env);
  const config: GatewayConfig = {
    port: parsed.PORT,
    upstreamTimeoutMs: parsed.GATEWAY_UPSTREAM_TIMEOUT,
    upstreamConnectRetryMs: parsed.GATEWAY_UPSTREAM_CONNECT_RETRY,
    bodyLimitBytes: 1024 * 1024,
    trustProxy: parsed.TRUST_PROXY,
    tls: Boolean(parsed.TLS_CERT_FILE && parsed.TLS_KEY_FILE),
    rateLimit: { per_second: parsed.RATE_LIMIT_PER_SECOND, burst: parsed.RATE_LIMIT_BURST },
    dashboardSession: {
      idleSeconds: parsed.DASHBOARD_SESSION_IDLE_SECONDS,
      maxSeconds: parsed.DASHBOARD_SESSION_MAX_SECONDS,
      signInsPerMinute: parsed.DASHBOARD_SIGN_INS_PER_MINUTE,
    },
    dashboardDir: resolve(parsed.DASHBOARD_DIST_DIR ?? defaultDashboardDir()),
    adminRefusalsPerMinute: parsed.ADMIN_REFUSALS_PER_MINUTE,
    auditRetentionDays: parsed.AUDIT_RETENTION_DAYS,
  };
  if (parsed.ADMIN_API_KEY) config.adminApiKey = parsed.ADMIN_API_KEY;
  if (parsed.BOOTSTRAP_API_KEY) config.bootstrapApiKey = parsed.BOOTSTRAP_API_KEY;
  if (parsed.PUBLIC_BASE_URL) config.publicBaseUrl = parsed.PUBLIC_BASE_URL;
  if (parsed.API_KEY_PEPPER) config.apiKeyPepper = parsed.API_KEY_PEPPER;
  return config;
}

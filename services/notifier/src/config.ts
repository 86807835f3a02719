import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, generatedKeyFile, generatedKeysEnv, loadConfig, loadKey } from '@vaultline/config';
import { isLoopbackHostname } from '@vaultline/egress';
import { DEFAULT_RETRY_SCHEDULE_MS } from './domain/retry-policy';

/** WEBHOOK_RETRY_SCHEDULE_MS: comma-separated delays in ms before attempts 1…n (the first normally 0). */
const retrySchedule = () =>
  z.string().transform((value, ctx) => {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    if (items.length === 0 || items.some((item) => !/^\d+$/.test(item))) {
      ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of delays in milliseconds, such as 0,5000,300000' });
      return z.NEVER;
    }
    return items.map(Number);
  });

export const NOTIFIER_KEY_FILE = 'notifier-secret.key';

/**
 * The service runs on loopback when nobody but this machine can reach it: the gateway binds a loopback
 * interface (GATEWAY_HOST, else HOST: 127.0.0.0/8, ::1 or localhost; not 0.0.0.0) AND it calls itself by a
 * loopback name (PUBLIC_BASE_URL's host is localhost, 127.0.0.0/8 or [::1]; unset, it is the gateway's
 * default http://localhost:$PORT). `pnpm start` with its defaults does; a container (HOST=0.0.0.0) or a
 * service behind a proxy with a public PUBLIC_BASE_URL does not. Then test-mode endpoints may be loopback
 * receivers (http://localhost:4242/…): the developers of this machine register their own laptop's shop.
 */
export function runsOnLoopback(env: { HOST?: string; GATEWAY_HOST?: string; PUBLIC_BASE_URL?: string }): boolean {
  const bindHost = (env.GATEWAY_HOST ?? env.HOST ?? '127.0.0.1').trim();
  let publicHost = 'localhost';
  if (env.PUBLIC_BASE_URL) {
    try {
      publicHost = new URL(env.PUBLIC_BASE_URL).hostname;
    } catch {
      return false;
    }
  }
  return isLoopbackHostname(bindHost) && isLoopbackHostname(publicHost);
}

export const notifierConfigSchema = z
  .object({
    /** Accept http and loopback/private receivers in both modes (tests, demos on a LAN). Never in production. */
    WEBHOOK_ALLOW_PRIVATE_URLS: envBoolean().default(false),
    /** Where the gateway binds (the launchers set it for standalone services); unset: HOST. See runsOnLoopback. */
    GATEWAY_HOST: z.string().min(1).optional(),
    HOST: z.string().min(1).optional(),
    PUBLIC_BASE_URL: z.string().min(1).optional(),
    WEBHOOK_RETRY_SCHEDULE_MS: retrySchedule().default(DEFAULT_RETRY_SCHEDULE_MS),
    WEBHOOK_TIMEOUT_MS: envDurationMs().default(15_000),
    WEBHOOK_CONNECT_TIMEOUT_MS: envDurationMs().default(5_000),
    WEBHOOK_MAX_IN_FLIGHT: envInteger({ min: 1, max: 10_000 }).default(256),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: envInteger({ min: 1, max: 100 }).default(4),
    WEBHOOK_POLL_INTERVAL_MS: envDurationMs().default(1_000),
    WEBHOOK_SECRET_ROTATION_GRACE_MS: envDurationMs().default(24 * 3_600_000),
    WEBHOOK_MAX_ENDPOINTS_PER_MERCHANT: envInteger({ min: 1, max: 10_000 }).default(200),
    /** How long a merchant's enabled endpoints are reused for consumed events; writes in this process drop them at once. 0: off. */
    WEBHOOK_ENDPOINT_CACHE_MS: envDurationMs().default(1_000),
    /**
     * Seals endpoint secrets at rest (base64, 32 bytes); the production profile must set it. Unset
     * (embedded and local profiles): generated once into KEYS_DIR/notifier-secret.key (mode 0600) and
     * read back on every later start; losing that file means endpoint secrets must be rotated.
     */
    NOTIFIER_SECRET_KEY: z.string().min(1).optional(),
    ...generatedKeysEnv,
  })
  .transform((env) => ({
    allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    /** Test-mode endpoints may be loopback receivers (http or https), because the service runs on loopback. */
    loopbackInTestMode: runsOnLoopback(env),
    retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE_MS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    connectTimeoutMs: env.WEBHOOK_CONNECT_TIMEOUT_MS,
    maxInFlight: env.WEBHOOK_MAX_IN_FLIGHT,
    maxInFlightPerEndpoint: env.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
    secretRotationGraceMs: env.WEBHOOK_SECRET_ROTATION_GRACE_MS,
    maxEndpointsPerMerchant: env.WEBHOOK_MAX_ENDPOINTS_PER_MERCHANT,
    endpointCacheMs: env.WEBHOOK_ENDPOINT_CACHE_MS,
    secretKey: loadKey({ variable: 'NOTIFIER_SECRET_KEY', value: env.NOTIFIER_SECRET_KEY, file: generatedKeyFile(env, NOTIFIER_KEY_FILE).path }),
  }));

export type NotifierConfig = z.infer<typeof notifierConfigSchema>;

export function loadNotifierConfig(env: NodeJS.ProcessEnv): NotifierConfig {
  return loadConfig(notifierConfigSchema, env);
}

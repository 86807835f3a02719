import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, generatedKeyFile, generatedKeysEnv, loadConfig, loadKey } from '@vaultline/config';
import { DEFAULT_RETRY_SCHEDULE_MS } from './domain/retry-policy';

/** WEBHOOK_RETRY_SCHEDULE_MS: comma-separated delays in ms before attempts 1…n (the first normally 0). */
const retrySchedule = () =>
  z.string().transform((value, ctx) => {
    const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
    if (items.length === 0 || items.some((item) => !/^\d+$/.test(item))) {
      ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of delays in milliseconds, such as 0,5000,300000' });
      return z.NEVER;
    }
    return items.map(Number);
  });

export const NOTIFIER_KEY_FILE = 'notifier-secret.key';

export const notifierConfigSchema = z
  .object({
    /** Accept http and loopback/private receivers (tests, local demos). Never in production. */
    WEBHOOK_ALLOW_PRIVATE_URLS: envBoolean().default(false),
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

import { hostname } from 'node:os';
import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, envUrl, generatedKeyFile, generatedKeysEnv, loadConfig, loadKey } from '@vaultline/config';

/**
 * The importer's configuration; the only file that reads the environment.
 *
 * IMPORTER_SECRET_KEY (base64, 32 bytes) encrypts the platform key and the job-scoped import key
 * while a job runs. When it is not set, the key is read from IMPORTER_SECRET_KEY_FILE (default
 * {KEYS_DIR}/importer-secret.key, see libs/config's generatedKeyFile), which is created once with a random key if missing: this is
 * how the embedded profile gets one. Production sets IMPORTER_SECRET_KEY (or mounts the file).
 *
 * PROVIDER_A_BASE_URL (fixed name) points provider_a at another base URL than the platform's.
 * Outgoing calls refuse private addresses and plain http, unless IMPORTER_ALLOW_PRIVATE_PROVIDER
 * is true: then the configured provider base URLs (and only they) may be private and http —
 * for the simulator on loopback. An explicit switch rather than a guess from the URL, so that a
 * misconfigured URL never opens private egress by itself.
 */
export const importerConfigSchema = z.object({
  ...generatedKeysEnv,
  IMPORTER_SECRET_KEY: z.string().min(1).optional(),
  IMPORTER_SECRET_KEY_FILE: z.string().min(1).optional(),
  PROVIDER_A_BASE_URL: envUrl(['https:', 'http:']).default('https://api.stripe.com'),
  IMPORTER_ALLOW_PRIVATE_PROVIDER: envBoolean().default(false),
  /** Forwarding requests in flight per job. */
  IMPORTER_CONCURRENCY: envInteger({ min: 1, max: 128 }).default(8),
  /** limit of the platform's list requests (1–100). */
  IMPORTER_PAGE_SIZE: envInteger({ min: 1, max: 100 }).default(100),
  /** Customers whose payment methods are listed ahead, in parallel. */
  IMPORTER_LOOKAHEAD: envInteger({ min: 1, max: 64 }).default(8),
  IMPORTER_CHECKPOINT_EVERY: envInteger({ min: 1, max: 10_000 }).default(100),
  IMPORTER_LEASE_MS: envDurationMs().default(30_000),
  IMPORTER_SCAN_INTERVAL_MS: envDurationMs().default(10_000),
  /** Lease owner name; a restarted process with the same name resumes its jobs without waiting for the lease. */
  IMPORTER_WORKER_ID: z.string().min(1).max(128).default(hostname()),
  IMPORTER_PROVIDER_TIMEOUT_MS: envDurationMs().default(30_000),
  IMPORTER_RETRY_ATTEMPTS: envInteger({ min: 1, max: 20 }).default(5),
  IMPORTER_RETRY_BASE_MS: envDurationMs().default(250),
  /** Longest backoff delay before jitter (the delay doubles from IMPORTER_RETRY_BASE_MS up to it). */
  IMPORTER_MAX_BACKOFF_MS: envDurationMs().default(30_000),
  IMPORTER_MAX_RETRY_AFTER_MS: envDurationMs().default(60_000),
  IMPORTER_MAX_RATE_LIMITED: envInteger({ min: 1, max: 1000 }).default(50),
  IMPORTER_SETTLE_TIMEOUT_MS: envDurationMs().default(300_000),
  /** After /cde-import answered 5xx, how long to wait for the card's token.created before forwarding it again. */
  IMPORTER_REFORWARD_GRACE_MS: envDurationMs().default(2_000),
  IMPORTER_IMPORT_KEY_TTL_MS: envDurationMs().default(86_400_000),
});

export type ImporterConfig = z.infer<typeof importerConfigSchema> & {
  /** The 32-byte key sealing secrets of running jobs. */
  secretKey: Buffer;
};

export function loadImporterConfig(env: NodeJS.ProcessEnv): ImporterConfig {
  const parsed = loadConfig(importerConfigSchema, env);
  const secretKey = loadKey({
    variable: 'IMPORTER_SECRET_KEY',
    value: parsed.IMPORTER_SECRET_KEY,
    file: parsed.IMPORTER_SECRET_KEY_FILE ?? generatedKeyFile(parsed, 'importer-secret.key').path,
    fileVariable: 'IMPORTER_SECRET_KEY_FILE',
  });
  return { ...parsed, secretKey };
}

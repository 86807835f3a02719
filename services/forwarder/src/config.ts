import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, envList, loadConfig } from '@vaultline/config';

/**
 * FORWARD_EXTRA_DESTINATIONS: comma-separated destination URLs allowed besides the built-in catalog;
 *   the only way to reach loopback or private addresses (local stand-ins, demos).
 * FORWARD_HTTPS_ONLY: default true. Set false only where listed destinations are plain-http loopback
 *   stand-ins (tests, the embedded demo); production keeps https only.
 */
export const forwarderConfigSchema = z
  .object({
    FORWARD_EXTRA_DESTINATIONS: envList().default([]),
    FORWARD_HTTPS_ONLY: envBoolean().default(true),
    FORWARD_CONNECT_TIMEOUT: envDurationMs().default(5_000),
    FORWARD_TIMEOUT: envDurationMs().default(30_000),
    FORWARD_MAX_RESPONSE_BYTES: envInteger({ min: 1024 }).default(1024 * 1024),
    FORWARD_MAX_BODY: z.string().regex(/^\d+(b|kb|mb)$/i).default('256kb'),
  })
  .transform((env) => ({
    extraDestinations: env.FORWARD_EXTRA_DESTINATIONS,
    httpsOnly: env.FORWARD_HTTPS_ONLY,
    connectTimeoutMs: env.FORWARD_CONNECT_TIMEOUT,
    totalTimeoutMs: env.FORWARD_TIMEOUT,
    maxResponseBytes: env.FORWARD_MAX_RESPONSE_BYTES,
    maxBody: env.FORWARD_MAX_BODY,
  }));

export type ForwarderConfig = z.infer<typeof forwarderConfigSchema>;

export function loadForwarderConfig(env: NodeJS.ProcessEnv): ForwarderConfig {
  return loadConfig(forwarderConfigSchema, env);
}

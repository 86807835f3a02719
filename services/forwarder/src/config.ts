import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, envList, loadConfig } from '@vaultline/config';
import { PLACEHOLDER_NAMES } from './domain/placeholders';

/** One operator-listed destination: its URL, and optionally its card fields and the one key mode it serves. */
export const extraDestinationSchema = z
  .object({
    url: z.string().min(1).max(2048),
    card_fields: z.record(z.string().min(1).max(200), z.enum(PLACEHOLDER_NAMES)).optional(),
    mode: z.enum(['test', 'live']).optional(),
  })
  .strict();

export type ExtraDestination = z.infer<typeof extraDestinationSchema>;

/** A comma-separated list of URLs, or (starting with '[') a JSON array of {url, card_fields?, mode?}. */
const extraDestinations = z.string().transform((value, ctx): ExtraDestination[] => {
  if (!value.trim().startsWith('['))
    return envList()
      .parse(value)
      .map((url) => ({ url }));
  let entries: unknown;
  try {
    entries = JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not valid JSON' });
    return z.NEVER;
  }
  const parsed = z.array(extraDestinationSchema).safeParse(entries);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * FORWARD_EXTRA_DESTINATIONS: destination URLs allowed besides the built-in catalog, comma-separated,
 *   or a JSON array of {url, card_fields?, mode?} (see the README); the only way to reach loopback or
 *   private addresses (local stand-ins, demos).
 * FORWARD_HTTPS_ONLY: default true. Set false only where listed destinations are plain-http loopback
 *   stand-ins (tests, the embedded demo); production keeps https only.
 * FORWARD_MAX_CONNECTIONS_PER_DESTINATION: default 256. Connections open at once to one destination origin;
 *   a PSP answers in 100s of ms, so this bounds forwards in flight to it (more wait for a free connection).
 */
export const forwarderConfigSchema = z
  .object({
    FORWARD_EXTRA_DESTINATIONS: extraDestinations.default([]),
    FORWARD_HTTPS_ONLY: envBoolean().default(true),
    FORWARD_CONNECT_TIMEOUT: envDurationMs().default(5_000),
    FORWARD_TIMEOUT: envDurationMs().default(30_000),
    FORWARD_MAX_RESPONSE_BYTES: envInteger({ min: 1024 }).default(1024 * 1024),
    FORWARD_MAX_BODY: z
      .string()
      .regex(/^\d+(b|kb|mb)$/i)
      .default('256kb'),
    FORWARD_MAX_CONNECTIONS_PER_DESTINATION: envInteger({ min: 1, max: 10_000 }).default(256),
  })
  .transform((env) => ({
    extraDestinations: env.FORWARD_EXTRA_DESTINATIONS,
    httpsOnly: env.FORWARD_HTTPS_ONLY,
    connectTimeoutMs: env.FORWARD_CONNECT_TIMEOUT,
    totalTimeoutMs: env.FORWARD_TIMEOUT,
    maxResponseBytes: env.FORWARD_MAX_RESPONSE_BYTES,
    maxBody: env.FORWARD_MAX_BODY,
    connectionsPerDestination: env.FORWARD_MAX_CONNECTIONS_PER_DESTINATION,
  }));

export type ForwarderConfig = z.infer<typeof forwarderConfigSchema>;

export function loadForwarderConfig(env: NodeJS.ProcessEnv): ForwarderConfig {
  return loadConfig(forwarderConfigSchema, env);
}

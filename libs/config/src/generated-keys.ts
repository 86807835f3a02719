import { join, resolve } from 'node:path';
import { z } from 'zod';
import { envBoolean } from './env-helpers';

/**
 * The variables that say where a service keeps the key files it generates for itself (embedded and
 * local profiles; production configures its keys). Spread into a service's config schema.
 */
export const generatedKeysEnv = {
  DATA_DIR: z.string().min(1).default('./data'),
  /** Generated key files; default `<DATA_DIR>-keys`, a directory beside the data directory, never inside it. */
  KEYS_DIR: z.string().min(1).optional(),
  /** Development only: keep generated key files in DATA_DIR itself (`pnpm start` sets it, and the vault warns). */
  DEV_KEYS_IN_DATA_DIR: envBoolean().default(false),
};

export interface GeneratedKeysEnv {
  DATA_DIR: string;
  KEYS_DIR?: string | undefined;
  DEV_KEYS_IN_DATA_DIR: boolean;
}

/**
 * Where a generated key file lives, and the variable to name in errors about it. A copy of the data
 * directory (a backup, a stolen disk image, a support bundle) must not carry the keys that decrypt it,
 * so keys go to KEYS_DIR unless DEV_KEYS_IN_DATA_DIR says a development setup wants one directory.
 */
export function generatedKeyFile(env: GeneratedKeysEnv, name: string): { path: string; variable: 'KEYS_DIR' | 'DATA_DIR' } {
  if (env.DEV_KEYS_IN_DATA_DIR) return { path: resolve(env.DATA_DIR, name), variable: 'DATA_DIR' };
  return { path: join(resolve(env.KEYS_DIR ?? `${resolve(env.DATA_DIR)}-keys`), name), variable: 'KEYS_DIR' };
}

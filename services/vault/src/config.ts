import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, loadConfig } from '@vaultline/config';

/**
 * Key material (see services/vault/README.md):
 * - VAULT_KEK_KEYS: comma-separated `version:base64key` (32-byte keys); VAULT_KEK_ACTIVE_VERSION picks the
 *   version that wraps new data keys (default: the highest).
 * - or VAULT_KEK_FILE: a JSON file `{ "keys": { "1": "base64…" }, "active_version": 1, "fingerprint_key": "base64…" }`.
 * - VAULT_FINGERPRINT_KEY: base64 32-byte HMAC key for card fingerprints (or fingerprint_key in the file).
 * - With none of them set and VAULT_KEK_AUTOGENERATE true (default unless STORE_URL is MongoDB, i.e. the
 *   embedded and local profiles), keys are generated once into DATA_DIR/vault-keys.json (mode 0600).
 */
export const vaultConfigSchema = z.object({
  VAULT_KEK_KEYS: z.string().min(1).optional(),
  VAULT_KEK_ACTIVE_VERSION: envInteger({ min: 1 }).optional(),
  VAULT_KEK_FILE: z.string().min(1).optional(),
  VAULT_FINGERPRINT_KEY: z.string().min(1).optional(),
  VAULT_KEK_AUTOGENERATE: envBoolean().optional(),
  STORE_URL: z.string().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Card submissions allowed per checkout session / per client address within the window. */
  VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: envInteger({ min: 1 }).default(5),
  VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: envInteger({ min: 1 }).default(30),
  VAULT_CHECKOUT_ATTEMPT_WINDOW: envDurationMs().default(10 * 60_000),
  VAULT_ROTATION_BATCH_SIZE: envInteger({ min: 1, max: 1000 }).default(100),
  VAULT_ROTATION_PAUSE: envDurationMs().default(10),
});

export type VaultEnv = z.infer<typeof vaultConfigSchema>;

export interface VaultConfig {
  keks: { list?: string; activeVersion?: number; file?: string; fingerprintKey?: string; autogenerate: boolean; dataDir: string };
  checkout: { perSession: number; perAddress: number; windowMs: number };
  rotation: { batchSize: number; pauseMs: number };
}

export function loadVaultConfig(env: NodeJS.ProcessEnv): VaultConfig {
  const e = loadConfig(vaultConfigSchema, env);
  const production = (e.STORE_URL ?? '').startsWith('mongodb');
  return {
    keks: {
      list: e.VAULT_KEK_KEYS,
      activeVersion: e.VAULT_KEK_ACTIVE_VERSION,
      file: e.VAULT_KEK_FILE,
      fingerprintKey: e.VAULT_FINGERPRINT_KEY,
      autogenerate: e.VAULT_KEK_AUTOGENERATE ?? !production,
      dataDir: e.DATA_DIR,
    },
    checkout: { perSession: e.VAULT_CHECKOUT_ATTEMPTS_PER_SESSION, perAddress: e.VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS, windowMs: e.VAULT_CHECKOUT_ATTEMPT_WINDOW },
    rotation: { batchSize: e.VAULT_ROTATION_BATCH_SIZE, pauseMs: e.VAULT_ROTATION_PAUSE },
  };
}

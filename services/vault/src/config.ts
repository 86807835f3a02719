import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ConfigError, ensurePrivateDirectory, envBoolean, envDurationMs, envInteger, generatedKeyFile, generatedKeysEnv, loadConfig } from '@vaultline/config';
import { generateKey, InvalidKeyError, KeyRing, keyFromBase64 } from '@vaultline/crypto';
import { VaultKeys, type KeyProvisioner } from './domain/keys/vault-keys';

/**
 * Key material (see services/vault/README.md):
 * - VAULT_KEK_KEYS: comma-separated `version:base64key` (32-byte keys); VAULT_KEK_ACTIVE_VERSION picks the
 *   version that wraps new data keys (default: the highest).
 * - or VAULT_KEK_FILE: a JSON file `{ "keys": { "1": "base64…" }, "active_version": 1, "fingerprint_key": "base64…" }`.
 * - VAULT_FINGERPRINT_KEY: base64 32-byte HMAC key for card fingerprints (or fingerprint_key in the file).
 * - With none of them set and VAULT_KEK_AUTOGENERATE true (default unless STORE_URL is MongoDB, i.e. the
 *   embedded and local profiles), keys are generated once into KEYS_DIR/vault-keys.json (mode 0600; KEYS_DIR
 *   defaults to `<DATA_DIR>-keys`, beside the data, not in it), or into DATA_DIR with DEV_KEYS_IN_DATA_DIR=true.
 */
export const vaultConfigSchema = z.object({
  VAULT_KEK_KEYS: z.string().min(1).optional(),
  VAULT_KEK_ACTIVE_VERSION: envInteger({ min: 1 }).optional(),
  VAULT_KEK_FILE: z.string().min(1).optional(),
  VAULT_FINGERPRINT_KEY: z.string().min(1).optional(),
  VAULT_KEK_AUTOGENERATE: envBoolean().optional(),
  STORE_URL: z.string().optional(),
  ...generatedKeysEnv,
  /** Card submissions allowed per checkout session / per client address within the window. */
  VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: envInteger({ min: 1 }).default(5),
  VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: envInteger({ min: 1 }).default(30),
  /** The per-address limit for test-mode sessions from a loopback address (a laptop: every browser is 127.0.0.1). */
  VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS: envInteger({ min: 1 }).default(1000),
  VAULT_CHECKOUT_ATTEMPT_WINDOW: envDurationMs().default(10 * 60_000),
  VAULT_ROTATION_BATCH_SIZE: envInteger({ min: 1, max: 1000 }).default(100),
  VAULT_ROTATION_PAUSE: envDurationMs().default(10),
});

export type VaultEnv = z.infer<typeof vaultConfigSchema>;

export interface VaultConfig {
  /** The KEK ring and the fingerprint key, loaded (or generated) while the configuration is read. */
  keys: VaultKeys;
  /** Set when the keys come from the key file the vault generated (embedded and local profiles): start warns. */
  generatedKeyFile?: string;
  /** The generated key file sits in DATA_DIR (DEV_KEYS_IN_DATA_DIR): start warns louder. */
  generatedKeyFileInDataDir?: boolean;
  checkout: { perSession: number; perAddress: number; perLoopbackTestAddress: number; windowMs: number };
  rotation: { batchSize: number; pauseMs: number };
}

export function loadVaultConfig(env: NodeJS.ProcessEnv): VaultConfig {
  const e = loadConfig(vaultConfigSchema, env);
  return {
    ...loadKeys(e),
    checkout: {
      perSession: e.VAULT_CHECKOUT_ATTEMPTS_PER_SESSION,
      perAddress: e.VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS,
      perLoopbackTestAddress: e.VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS,
      windowMs: e.VAULT_CHECKOUT_ATTEMPT_WINDOW,
    },
    rotation: { batchSize: e.VAULT_ROTATION_BATCH_SIZE, pauseMs: e.VAULT_ROTATION_PAUSE },
  };
}

interface KeyFile {
  keys: Record<string, string>;
  active_version?: number;
  fingerprint_key?: string;
}

export const GENERATED_KEY_FILE = 'vault-keys.json';

/**
 * The vault's keys: VAULT_KEK_KEYS (+ VAULT_KEK_ACTIVE_VERSION) or VAULT_KEK_FILE, plus
 * VAULT_FINGERPRINT_KEY; else, where allowed, a key file generated once under KEYS_DIR. Every
 * problem is a ConfigError naming the variable, never showing a key.
 */
function loadKeys(e: VaultEnv): Pick<VaultConfig, 'keys' | 'generatedKeyFile' | 'generatedKeyFileInDataDir'> {
  if (e.VAULT_KEK_KEYS) {
    const ring = asConfig('VAULT_KEK_KEYS', () => KeyRing.parse(e.VAULT_KEK_KEYS!, e.VAULT_KEK_ACTIVE_VERSION));
    if (!e.VAULT_FINGERPRINT_KEY) throw new ConfigError([{ variable: 'VAULT_FINGERPRINT_KEY', reason: 'is required with VAULT_KEK_KEYS' }]);
    return { keys: new VaultKeys(ring, fingerprintKeyOf('VAULT_FINGERPRINT_KEY', e.VAULT_FINGERPRINT_KEY)) };
  }
  if (e.VAULT_KEK_FILE) {
    const file = readKeyFile('VAULT_KEK_FILE', e.VAULT_KEK_FILE);
    const fingerprintKey = e.VAULT_FINGERPRINT_KEY ?? file.fingerprint_key;
    if (!fingerprintKey) throw new ConfigError([{ variable: 'VAULT_FINGERPRINT_KEY', reason: 'is required (or fingerprint_key in VAULT_KEK_FILE)' }]);
    const ring = asConfig('VAULT_KEK_FILE', () => ringOf(file, e.VAULT_KEK_ACTIVE_VERSION));
    return { keys: new VaultKeys(ring, fingerprintKeyOf(e.VAULT_FINGERPRINT_KEY ? 'VAULT_FINGERPRINT_KEY' : 'VAULT_KEK_FILE', fingerprintKey)) };
  }
  const production = (e.STORE_URL ?? '').startsWith('mongodb');
  if (!(e.VAULT_KEK_AUTOGENERATE ?? !production)) {
    throw new ConfigError([{ variable: 'VAULT_KEK_KEYS', reason: 'is required (or VAULT_KEK_FILE), with VAULT_FINGERPRINT_KEY' }]);
  }
  const { path, variable } = generatedKeyFile(e, GENERATED_KEY_FILE);
  if (!existsSync(path))
    writeKeyFile(path, { keys: { '1': generateKey().toString('base64') }, active_version: 1, fingerprint_key: generateKey().toString('base64') });
  const file = readKeyFile(variable, path);
  if (!file.fingerprint_key) throw new ConfigError([{ variable, reason: `the key file ${path} has no fingerprint_key` }]);
  const ring = asConfig(variable, () => ringOf(file, e.VAULT_KEK_ACTIVE_VERSION));
  return {
    keys: new VaultKeys(ring, fingerprintKeyOf(variable, file.fingerprint_key), keyFileProvisioner(path, variable)),
    generatedKeyFile: path,
    generatedKeyFileInDataDir: e.DEV_KEYS_IN_DATA_DIR,
  };
}

/** A key that does not decode (or is not 32 bytes) is a configuration error of the variable that gave it. */
function asConfig<T>(variable: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof InvalidKeyError) throw new ConfigError([{ variable, reason: error.message }]);
    throw error;
  }
}

function fingerprintKeyOf(variable: string, base64: string): Buffer {
  return asConfig(variable, () => keyFromBase64(base64, variable));
}

/** Where the vault owns its key file, a rotation to a new version generates that version into the file. */
function keyFileProvisioner(path: string, variable: string): KeyProvisioner {
  return {
    addVersion(version, ring) {
      const file = readKeyFile(variable, path);
      const key = generateKey();
      file.keys[String(version)] = key.toString('base64');
      file.active_version = version;
      writeKeyFile(path, file);
      return ring.with(version, key);
    },
  };
}

function ringOf(file: KeyFile, activeVersion?: number): KeyRing {
  const list = Object.entries(file.keys ?? {})
    .map(([version, key]) => `${version}:${key}`)
    .join(',');
  return KeyRing.parse(list, activeVersion ?? file.active_version);
}

function readKeyFile(variable: string, path: string): KeyFile {
  let parsed: KeyFile;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  } catch (error) {
    throw new ConfigError([{ variable, reason: `the key file ${path} cannot be read as JSON (${(error as NodeJS.ErrnoException).code ?? 'invalid JSON'})` }]);
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.keys !== 'object')
    throw new ConfigError([{ variable, reason: `the key file ${path} has no "keys" object` }]);
  return parsed;
}

function writeKeyFile(path: string, content: KeyFile): void {
  ensurePrivateDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(content, null, 2), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateKey, KeyRing, keyFromBase64 } from '@vaultline/crypto';
import type { Logger } from '@vaultline/logger';
import type { VaultConfig } from '../config';
import { VaultKeys, type KeyProvisioner } from '../domain/keys/vault-keys';

interface KeyFile {
  keys: Record<string, string>;
  active_version?: number;
  fingerprint_key?: string;
}

export const GENERATED_KEY_FILE = 'vault-keys.json';

/**
 * Builds the vault's keys from configuration: VAULT_KEK_KEYS (+ VAULT_KEK_ACTIVE_VERSION) or
 * VAULT_KEK_FILE, plus VAULT_FINGERPRINT_KEY; else, where allowed, a generated key file under DATA_DIR.
 */
export function loadKeyMaterial(config: VaultConfig['keks'], logger: Logger): VaultKeys {
  if (config.list) {
    const ring = KeyRing.parse(config.list, config.activeVersion);
    if (!config.fingerprintKey) throw new Error('missing configuration: VAULT_FINGERPRINT_KEY (required with VAULT_KEK_KEYS)');
    return new VaultKeys(ring, keyFromBase64(config.fingerprintKey, 'VAULT_FINGERPRINT_KEY'));
  }
  if (config.file) {
    const file = readKeyFile(config.file);
    const fingerprintKey = config.fingerprintKey ?? file.fingerprint_key;
    if (!fingerprintKey) throw new Error('missing configuration: VAULT_FINGERPRINT_KEY (or fingerprint_key in VAULT_KEK_FILE)');
    return new VaultKeys(ringOf(file, config.activeVersion), keyFromBase64(fingerprintKey, 'VAULT_FINGERPRINT_KEY'));
  }
  if (!config.autogenerate) {
    throw new Error('missing configuration: VAULT_KEK_KEYS or VAULT_KEK_FILE (key-encryption keys) and VAULT_FINGERPRINT_KEY');
  }
  const path = resolve(join(config.dataDir, GENERATED_KEY_FILE));
  if (!existsSync(path)) {
    writeKeyFile(path, { keys: { '1': generateKey().toString('base64') }, active_version: 1, fingerprint_key: generateKey().toString('base64') });
    logger.warn({ path }, 'generated vault keys into a local key file; production must configure VAULT_KEK_KEYS or VAULT_KEK_FILE and VAULT_FINGERPRINT_KEY');
  } else {
    logger.warn({ path }, 'using the generated vault key file; production must configure VAULT_KEK_KEYS or VAULT_KEK_FILE');
  }
  const file = readKeyFile(path);
  if (!file.fingerprint_key) throw new Error(`the key file ${path} has no fingerprint_key`);
  return new VaultKeys(ringOf(file, config.activeVersion), keyFromBase64(file.fingerprint_key, 'fingerprint_key'), keyFileProvisioner(path));
}

/** Where the vault owns its key file, a rotation to a new version generates that version into the file. */
function keyFileProvisioner(path: string): KeyProvisioner {
  return {
    addVersion(version, ring) {
      const file = readKeyFile(path);
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

function readKeyFile(path: string): KeyFile {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as KeyFile;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.keys !== 'object') throw new Error(`the key file ${path} has no "keys" object`);
  return parsed;
}

function writeKeyFile(path: string, content: KeyFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(content, null, 2), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

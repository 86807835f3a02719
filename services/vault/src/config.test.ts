import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@vaultline/config';
import { generateKey } from '@vaultline/crypto';
import { GENERATED_KEY_FILE, loadVaultConfig } from './config';

const aKey = () => generateKey().toString('base64');

function configError(env: Record<string, string>): ConfigError {
  try {
    loadVaultConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the vault keys, read with the configuration', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vault-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when VAULT_KEK_KEYS and VAULT_FINGERPRINT_KEY are set, then the ring holds every version with the chosen one active', () => {
    const config = loadVaultConfig({ VAULT_KEK_KEYS: `1:${aKey()},2:${aKey()}`, VAULT_KEK_ACTIVE_VERSION: '1', VAULT_FINGERPRINT_KEY: aKey(), DATA_DIR: dir });

    expect(config.keys.ring.activeVersion).toBe(1);
    expect(config.keys.ring.has(2)).toBe(true);
    expect(config.generatedKeyFile).toBeUndefined();
  });

  it('when VAULT_KEK_KEYS is set without VAULT_FINGERPRINT_KEY, then a ConfigError names VAULT_FINGERPRINT_KEY', () => {
    expect(configError({ VAULT_KEK_KEYS: `1:${aKey()}`, DATA_DIR: dir }).problems).toEqual([
      { variable: 'VAULT_FINGERPRINT_KEY', reason: 'is required with VAULT_KEK_KEYS' },
    ]);
  });

  it('when a key is not 32 bytes, then a ConfigError names the variable and does not show the key', () => {
    const short = Buffer.alloc(16, 7).toString('base64');

    const error = configError({ VAULT_KEK_KEYS: `1:${short}`, VAULT_FINGERPRINT_KEY: aKey(), DATA_DIR: dir });

    expect(error.problems.map((p) => p.variable)).toEqual(['VAULT_KEK_KEYS']);
    expect(error.message).not.toContain(short);
  });

  it('when no keys are configured and generating them is off, then a ConfigError names VAULT_KEK_KEYS', () => {
    expect(configError({ VAULT_KEK_AUTOGENERATE: 'false', DATA_DIR: dir }).problems.map((p) => p.variable)).toEqual(['VAULT_KEK_KEYS']);
  });

  it('when VAULT_KEK_FILE is not JSON, then a ConfigError names VAULT_KEK_FILE', () => {
    const file = join(dir, 'keys.json');
    writeFileSync(file, 'not json');

    expect(configError({ VAULT_KEK_FILE: file, DATA_DIR: dir }).problems.map((p) => p.variable)).toEqual(['VAULT_KEK_FILE']);
  });

  it('when no keys are configured in the embedded profile, then a key file is generated once into KEYS_DIR (mode 0600) and read again on the next start', () => {
    const first = loadVaultConfig({ DATA_DIR: join(dir, 'data'), KEYS_DIR: dir });
    const path = join(dir, GENERATED_KEY_FILE);
    const written = readFileSync(path, 'utf8');

    const second = loadVaultConfig({ DATA_DIR: join(dir, 'data'), KEYS_DIR: dir });

    expect(first.generatedKeyFile).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(written);
    expect(second.keys.fingerprintOf('m', '4242424242424242')).toBe(first.keys.fingerprintOf('m', '4242424242424242'));
  });

  it('when neither KEYS_DIR nor the development flag is set, then the key file is generated beside DATA_DIR (<DATA_DIR>-keys), not in it', () => {
    const config = loadVaultConfig({ DATA_DIR: join(dir, 'data') });

    expect(config.generatedKeyFile).toBe(join(dir, 'data-keys', GENERATED_KEY_FILE));
    expect(config.generatedKeyFileInDataDir).toBe(false);
    expect(statSync(join(dir, 'data-keys')).mode & 0o777).toBe(0o700);
  });

  it('when DEV_KEYS_IN_DATA_DIR is true, then the key file is generated in DATA_DIR and the configuration says so (start warns)', () => {
    const config = loadVaultConfig({ DATA_DIR: dir, DEV_KEYS_IN_DATA_DIR: 'true' });

    expect(config.generatedKeyFile).toBe(join(dir, GENERATED_KEY_FILE));
    expect(config.generatedKeyFileInDataDir).toBe(true);
  });
});

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@vaultline/config';
import { loadImporterConfig } from './config';

describe('the importer key that seals secrets of running jobs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'importer-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (env: Record<string, string>) => {
    try {
      loadImporterConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.map((p) => p.variable);
      throw error;
    }
    return [];
  };

  it('when IMPORTER_SECRET_KEY is unset, then a key is generated once as KEYS_DIR/importer-secret.key (mode 0600) and read back on the next start', () => {
    const first = loadImporterConfig({ KEYS_DIR: dir }).secretKey;

    expect(loadImporterConfig({ KEYS_DIR: dir }).secretKey.equals(first)).toBe(true);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'importer-secret.key')).mode & 0o777).toBe(0o600);
  });

  it('when IMPORTER_SECRET_KEY_FILE names a file, then the key is kept there', () => {
    const file = join(dir, 'elsewhere', 'sealing.key');

    const key = loadImporterConfig({ KEYS_DIR: dir, IMPORTER_SECRET_KEY_FILE: file }).secretKey;

    expect(loadImporterConfig({ IMPORTER_SECRET_KEY_FILE: file }).secretKey.equals(key)).toBe(true);
  });

  it('when the key is not 32 bytes, then the configuration is refused naming the variable it came from', () => {
    const file = join(dir, 'broken.key');
    writeFileSync(file, 'not a key');

    expect(problemsOf({ KEYS_DIR: dir, IMPORTER_SECRET_KEY: Buffer.alloc(16).toString('base64') })).toEqual(['IMPORTER_SECRET_KEY']);
    expect(problemsOf({ KEYS_DIR: dir, IMPORTER_SECRET_KEY_FILE: file })).toEqual(['IMPORTER_SECRET_KEY_FILE']);
  });
});

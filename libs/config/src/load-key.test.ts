import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './load-config';
import { loadKey } from './load-key';

describe('loadKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'load-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const problemsOf = (load: () => unknown) => {
    try {
      load();
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error('no ConfigError');
  };

  it('when the variable is unset, then a key is generated once into the file (mode 0600, directories created) and read back on the next start', () => {
    const file = join(dir, 'nested', 'service.key');

    const first = loadKey({ variable: 'SERVICE_KEY', value: undefined, file });
    const second = loadKey({ variable: 'SERVICE_KEY', value: undefined, file });

    expect(first).toHaveLength(32);
    expect(first.equals(second)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('when the variable is set (base64 or base64url), then it is used and no file is written', () => {
    const key = Buffer.alloc(32, 0xfb);
    const file = join(dir, 'service.key');

    expect(loadKey({ variable: 'SERVICE_KEY', value: key.toString('base64'), file }).equals(key)).toBe(true);
    expect(loadKey({ variable: 'SERVICE_KEY', value: key.toString('base64url'), file }).equals(key)).toBe(true);
    expect(() => readFileSync(file)).toThrow();
  });

  it('when the variable is not 32 bytes of base64, then a ConfigError names the variable and does not quote the value', () => {
    const problems = problemsOf(() => loadKey({ variable: 'SERVICE_KEY', value: 'c2hvcnQtc2VjcmV0', file: join(dir, 'k') }));

    expect(problems).toEqual([{ variable: 'SERVICE_KEY', reason: expect.stringContaining('32 bytes') }]);
    expect(JSON.stringify(problems)).not.toContain('c2hvcnQtc2VjcmV0');
  });

  it('when the key file holds something else than a key, then a ConfigError names the file variable and the file', () => {
    const file = join(dir, 'service.key');
    writeFileSync(file, 'not a key');

    expect(problemsOf(() => loadKey({ variable: 'SERVICE_KEY', value: undefined, file, fileVariable: 'SERVICE_KEY_FILE' }))).toEqual([
      { variable: 'SERVICE_KEY_FILE', reason: `the key file ${file} must hold 32 bytes encoded as base64` },
    ]);
    expect(problemsOf(() => loadKey({ variable: 'SERVICE_KEY', value: undefined, file }))).toEqual([
      { variable: 'SERVICE_KEY', reason: expect.stringContaining(file) },
    ]);
  });
});

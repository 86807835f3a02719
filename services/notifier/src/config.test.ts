import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@vaultline/config';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { loadNotifierConfig, NOTIFIER_KEY_FILE, runsOnLoopback } from './config';
import { endpointSecretContext } from './domain/webhook-endpoint';

describe('the notifier key that seals endpoint secrets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notifier-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when NOTIFIER_SECRET_KEY is unset, then a key is generated once under KEYS_DIR (mode 0600) and read back on the next start', () => {
    const first = loadNotifierConfig({ KEYS_DIR: dir }).secretKey;
    const second = loadNotifierConfig({ KEYS_DIR: dir }).secretKey;
    expect(first.equals(second)).toBe(true);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, NOTIFIER_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('when NOTIFIER_SECRET_KEY is set, then it is used and no file is written', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadNotifierConfig({ NOTIFIER_SECRET_KEY: key.toString('base64'), KEYS_DIR: dir }).secretKey.equals(key)).toBe(true);
    expect(() => readFileSync(join(dir, NOTIFIER_KEY_FILE))).toThrow();
  });

  it('when a sealed secret is opened for another endpoint, then decryption fails (the endpoint id is bound)', () => {
    const sealer = new AesGcmSecretSealer(loadNotifierConfig({ KEYS_DIR: dir }).secretKey);
    const sealed = sealer.seal('whsec_abc', endpointSecretContext('ep_1'));
    expect(sealed).not.toContain('whsec_abc');
    expect(sealer.open(sealed, endpointSecretContext('ep_1'))).toBe('whsec_abc');
    expect(() => sealer.open(sealed, endpointSecretContext('ep_2'))).toThrow();
  });

  it('when NOTIFIER_SECRET_KEY is not 32 bytes of base64, then the configuration is refused naming it', () => {
    expect(() => loadNotifierConfig({ NOTIFIER_SECRET_KEY: 'dG9vLXNob3J0', KEYS_DIR: dir })).toThrow(ConfigError);
    expect(() => loadNotifierConfig({ NOTIFIER_SECRET_KEY: 'dG9vLXNob3J0', KEYS_DIR: dir })).toThrow(/NOTIFIER_SECRET_KEY/);
  });
});

describe('whether the service runs on loopback (test-mode endpoints may then be loopback receivers)', () => {
  it.each([
    [{}, true],
    [{ HOST: '127.0.0.1', PUBLIC_BASE_URL: 'http://localhost:8080' }, true],
    [{ HOST: '::1', PUBLIC_BASE_URL: 'http://[::1]:8080' }, true],
    [{ HOST: 'localhost', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }, true],
    [{ HOST: '127.0.0.1', GATEWAY_HOST: '127.0.0.1' }, true],
  ])('when the environment is %j, then it does', (env, expected) => {
    expect(runsOnLoopback(env)).toBe(expected);
  });

  it.each([
    [{ HOST: '0.0.0.0' }],
    [{ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'http://localhost:8080' }],
    [{ HOST: '127.0.0.1', GATEWAY_HOST: '0.0.0.0' }],
    [{ HOST: '127.0.0.1', PUBLIC_BASE_URL: 'https://vault.example.com' }],
    [{ HOST: '192.168.1.10', PUBLIC_BASE_URL: 'http://192.168.1.10:8080' }],
    [{ PUBLIC_BASE_URL: 'not a url' }],
  ])('when the environment is %j, then it does not', (env) => {
    expect(runsOnLoopback(env)).toBe(false);
  });
});

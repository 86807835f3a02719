import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOTIFIER_KEY_FILE, resolveNotifierKey } from './notifier-key';
import { createSecretCipher } from './secret-cipher';

describe('the notifier key that seals endpoint secrets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notifier-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when NOTIFIER_SECRET_KEY is unset, then a key is generated once under DATA_DIR (mode 0600) and read back on the next start', () => {
    const first = resolveNotifierKey({ dataDir: dir });
    const second = resolveNotifierKey({ dataDir: dir });
    expect(first.equals(second)).toBe(true);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, NOTIFIER_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('when NOTIFIER_SECRET_KEY is set, then it is used and no file is written', () => {
    const key = Buffer.alloc(32, 7);
    expect(resolveNotifierKey({ secretKey: key.toString('base64'), dataDir: dir }).equals(key)).toBe(true);
    expect(() => readFileSync(join(dir, NOTIFIER_KEY_FILE))).toThrow();
  });

  it('when a sealed secret is opened for another endpoint, then decryption fails (the endpoint id is bound)', () => {
    const cipher = createSecretCipher(resolveNotifierKey({ dataDir: dir }));
    const sealed = cipher.seal('ep_1', 'whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(cipher.open('ep_1', sealed)).toBe('whsec_abc');
    expect(() => cipher.open('ep_2', sealed)).toThrow();
  });
});

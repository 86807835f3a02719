import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';
import { MerchantApi } from './support/merchant-api';

const MERCHANT_API_KEY = 'sk_test_shredding_0123456789abcdef';

interface StoredToken {
  id: string;
  wrapped_key: string | null;
  pan_ciphertext: string | null;
  name_ciphertext: string | null;
}

/** Every file under the directory, with its path relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/**
 * Overlapping fragments of a secret in each form a file could hold it: the base64url text the store
 * writes, standard base64, and the raw bytes. Fragments rather than the whole value, so that a tail
 * left behind by a shorter row written over the old one is found too.
 */
function fragmentsOf(base64url: string): Buffer[] {
  const raw = Buffer.from(base64url, 'base64url');
  const windows = (value: Buffer, size: number) => {
    const parts: Buffer[] = [];
    for (let at = 0; at + size <= value.length; at += Math.floor(size / 2)) parts.push(value.subarray(at, at + size));
    return parts;
  };
  return [...windows(Buffer.from(base64url, 'latin1'), 16), ...windows(Buffer.from(raw.toString('base64'), 'latin1'), 16), ...windows(raw, 12)];
}

function filesHolding(dir: string, secrets: Record<string, string>): string[] {
  const found: string[] = [];
  for (const path of filesUnder(dir)) {
    const content = readFileSync(path);
    for (const [label, secret] of Object.entries(secrets)) {
      if (fragmentsOf(secret).some((fragment) => content.includes(fragment))) found.push(`${relative(dir, path)}: ${label}`);
    }
  }
  return found;
}

/**
 * Crypto-shredding on disk, embedded profile: what a deleted token was encrypted with must not be
 * readable from any file of DATA_DIR (database, WAL, shared memory, bus), and generated keys live
 * apart from the data they protect.
 */
describe('embedded profile: a deleted token leaves nothing recoverable on disk', () => {
  let root: string;
  let dataDir: string;
  let keysDir: string;
  let system: EmbeddedSystem;
  let merchant: MerchantApi;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'vaultline-shredding-'));
    dataDir = join(root, 'data');
    keysDir = join(root, 'keys');
    system = await startEmbedded({
      dataDir,
      port: 0,
      env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, LOG_LEVEL: 'silent', KEYS_DIR: keysDir, DEV_KEYS_IN_DATA_DIR: 'false' },
    });
    merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
  });

  afterAll(async () => {
    await system?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('when a token of 5555555555554444 is deleted, then no file under DATA_DIR (WAL included) holds a fragment of its ciphertexts or wrapped key', async () => {
    const token = await merchant.createToken({ number: '5555555555554444', exp_month: 12, exp_year: 2031, cvc: '737', name: 'Erika Mustermann' });
    const stored = await system.services.vault!.runtime.store.collection<StoredToken & { merchant_id: string; version: number }>('tokens').getGlobal(token.id);
    const secrets = { wrapped_key: stored!.wrapped_key!, pan_ciphertext: stored!.pan_ciphertext!, name_ciphertext: stored!.name_ciphertext! };
    // The scan finds them while the token lives: it can fail.
    expect(filesHolding(dataDir, secrets).length).toBeGreaterThanOrEqual(3);

    const deleted = await merchant.call('DELETE', `/tokens/${token.id}`);

    expect(deleted.status).toBe(200);
    expect(filesHolding(dataDir, secrets)).toEqual([]);
  });

  it('when the system runs, then DATA_DIR is mode 0700 and every file in it (databases, WAL, shared memory) is 0600', async () => {
    await merchant.createToken({ number: '4000056655665556', exp_month: 1, exp_year: 2032 });

    const modes = Object.fromEntries(filesUnder(dataDir).map((path) => [relative(dataDir, path), (statSync(path).mode & 0o777).toString(8)]));

    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['vault.db', 'vault.db-wal', 'bus.db', 'bus.db-wal']));
    expect(Object.entries(modes).filter(([, mode]) => mode !== '600')).toEqual([]);
  });

  it('when the development flag DEV_KEYS_IN_DATA_DIR is off, then the generated keys are written to KEYS_DIR and none to DATA_DIR', () => {
    const keyFiles = ['vault-keys.json', 'importer-secret.key', 'notifier-secret.key', 'payment-orchestrator-secret.key', 'idempotency-fingerprint.key'];

    expect(
      filesUnder(dataDir)
        .map((path) => relative(dataDir, path))
        .filter((name) => keyFiles.includes(name) || /key/i.test(name)),
    ).toEqual([]);
    expect(readdirSync(keysDir).sort()).toEqual([...keyFiles].sort());
    for (const name of keyFiles) expect(statSync(join(keysDir, name)).mode & 0o777).toBe(0o600);
    expect(statSync(keysDir).mode & 0o777).toBe(0o700);
  });
});

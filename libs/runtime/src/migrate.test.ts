import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '@vaultline/store';
import { PARKED_OUTBOX_COLLECTION } from '@vaultline/bus';
import { runMigrate } from './standalone';

describe('the migrate command', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vaultline-migrate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("when `migrate` runs for a service, then its store holds the service's collections and the relay's parked collection, and it exits 0", async () => {
    const code = await runMigrate('notifier', async () => [{ name: 'webhook_endpoints', indexes: [{ fields: ['url'] }] }], {
      STORE_URL: `sqlite:${join(dir, '{service}.db')}`,
      LOG_LEVEL: 'silent',
    });

    expect(code).toBe(0);
    const store = await SqliteDocumentStore.open(join(dir, 'notifier.db'));
    try {
      expect(await store.collection('webhook_endpoints').count({ merchantId: 'm1', mode: 'test' }, { url: 'https://example.com' })).toBe(0);
      expect(await store.collection(PARKED_OUTBOX_COLLECTION).count({ merchantId: 'm1', mode: 'test' }, {})).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('when `migrate --dry-run` runs after a release dropped an index, then it prints the drop and changes nothing; `migrate` then drops it and logs it', async () => {
    const env = { STORE_URL: `sqlite:${join(dir, '{service}.db')}`, LOG_LEVEL: 'silent' };
    expect(await runMigrate('notifier', async () => [{ name: 'webhook_endpoints', indexes: [{ fields: ['url'], unique: true }] }], env)).toBe(0);
    const nextRelease = async () => [{ name: 'webhook_endpoints', indexes: [] }];

    const printed: string[] = [];
    expect(await runMigrate('notifier', nextRelease, env, { dryRun: true, print: (line) => printed.push(line) })).toBe(0);
    expect(printed).toEqual([
      expect.stringMatching(/^drop webhook_endpoints\.ux_webhook_endpoints_url_[0-9a-f]{8} \(merchant_id, json_extract.*, unique\): no longer declared$/),
      'notifier migrate --dry-run: 1 index change(s); nothing was changed',
    ]);
    const again: string[] = [];
    expect(await runMigrate('notifier', nextRelease, env, { dryRun: true, print: (line) => again.push(line) })).toBe(0);
    expect(again).toHaveLength(2);

    expect(await runMigrate('notifier', nextRelease, env)).toBe(0);
    const after: string[] = [];
    expect(await runMigrate('notifier', nextRelease, env, { dryRun: true, print: (line) => after.push(line) })).toBe(0);
    expect(after).toEqual(['notifier migrate --dry-run: nothing to change; nothing was changed']);
  });

  it('when the store cannot be opened, then migrate exits 1', async () => {
    expect(await runMigrate('notifier', async () => [], { STORE_URL: 'cassandra://nowhere', LOG_LEVEL: 'silent' })).toBe(1);
  });
});

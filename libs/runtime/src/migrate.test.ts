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

  it('when the store cannot be opened, then migrate exits 1', async () => {
    expect(await runMigrate('notifier', async () => [], { STORE_URL: 'cassandra://nowhere', LOG_LEVEL: 'silent' })).toBe(1);
  });
});

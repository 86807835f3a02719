import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { SqliteDocumentStore, openStore, type DocumentStore } from '../src';

const DAY = 86_400_000;

describe('processed-event marks expire after the retention (PROCESSED_EVENTS_RETENTION_DAYS)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vaultline-retention-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (now: () => number): Promise<DocumentStore> =>
    SqliteDocumentStore.open(join(dir, 'store.db'), { processedRetention: { retentionMs: 14 * DAY }, now });

  it('when an SQLite store opened with a 14-day retention starts, then its pruning job drops marks older than 14 days and keeps the younger', async () => {
    let clock = Date.now();
    const seeding = await open(() => clock);
    await seeding.transaction((uow) => uow.markProcessed('billing', 'fifteen-days-old'));
    clock += 2 * DAY;
    await seeding.transaction((uow) => uow.markProcessed('billing', 'thirteen-days-old'));
    await seeding.close();
    clock += 13 * DAY;

    // The job runs at start, then hourly.
    const store = await open(() => clock);
    await waitFor(async () => !(await store.isProcessed('billing', 'fifteen-days-old')), 2_000);

    expect(await store.isProcessed('billing', 'thirteen-days-old')).toBe(true);
    await store.close();
  });

  it('when openStore is given a retention for an SQLite URL, then the store it opens prunes on its own at start', async () => {
    const file = join(dir, 'opened.db');
    const seeding = await SqliteDocumentStore.open(file, { now: () => Date.now() - 20 * DAY });
    await seeding.transaction((uow) => uow.markProcessed('billing', 'twenty-days-old'));
    await seeding.transaction((uow) => uow.markProcessed('billing', 'x'));
    await seeding.close();

    const store = await openStore(`sqlite:${file}`, { processedRetention: { retentionMs: 14 * DAY } });

    await waitFor(async () => !(await store.isProcessed('billing', 'twenty-days-old')), 2_000);
    await store.close();
  });
});

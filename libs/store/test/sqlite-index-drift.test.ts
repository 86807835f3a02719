import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '../src/sqlite/sqlite-store';
import { DuplicateKeyError, type StoredDocument } from '../src';

interface Order extends StoredDocument {
  reference: string;
}

const SCOPE = { merchantId: 'm1', mode: 'test' as const };

describe('SQLite: a release that changes its indexes (on a real file)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'vaultline-index-drift-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const open = (planOnly = false) => SqliteDocumentStore.open(join(folder, 'orders.db'), { backgroundCheckpoints: false, planOnly });
  const insert = (store: SqliteDocumentStore, id: string) =>
    store.transaction((uow) => uow.insert<Order>('orders', { id, merchant_id: SCOPE.merchantId, mode: 'test', reference: 'same' }));

  it('when a unique index is no longer declared, then the next start drops it (the constraint stops holding), after a dry run that only lists it', async () => {
    const first = await open();
    await first.register({ name: 'orders', indexes: [{ fields: ['reference'], unique: true }] });
    await insert(first, 'o1');
    await expect(insert(first, 'o2')).rejects.toBeInstanceOf(DuplicateKeyError);
    await first.close();

    const dryRun = await open(true);
    await dryRun.register({ name: 'orders', indexes: [] });
    expect(dryRun.indexSteps().map((step) => `${step.action} ${step.index.name}`)).toEqual([expect.stringMatching(/^drop ux_orders_reference_/)]);
    await dryRun.close();

    const stillEnforced = await open();
    // The dry run changed nothing: the next release's start is what drops it.
    await stillEnforced.register({ name: 'orders', indexes: [{ fields: ['reference'], unique: true }] });
    expect(stillEnforced.indexSteps()).toEqual([]);
    await stillEnforced.close();

    const next = await open();
    await next.register({ name: 'orders', indexes: [] });
    expect(next.indexSteps().map((step) => step.action)).toEqual(['drop']);
    await insert(next, 'o2');
    await next.close();
  });

  it('when an index is declared with another shape under the same fields, then it is built anew; registering again changes nothing', async () => {
    const first = await open();
    await first.register({ name: 'orders', indexes: [{ fields: ['reference'] }] });
    await first.close();

    const next = await open();
    await next.register({ name: 'orders', indexes: [{ fields: ['reference'], unique: true }] });
    await next.register({ name: 'orders', indexes: [{ fields: ['reference'], unique: true }] });
    // A differently named index (unique ones are ux_…): the old one is dropped, the new one created, once.
    expect(next.indexSteps().map((step) => `${step.action} ${step.index.name.slice(0, 19)}`)).toEqual([
      'drop ix_orders_reference',
      'create ux_orders_reference',
    ]);
    await insert(next, 'o1');
    await expect(insert(next, 'o2')).rejects.toBeInstanceOf(DuplicateKeyError);
    await next.close();
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError, SqliteDocumentStore, type OutboxMessage, type StoredDocument } from '../src';
import { GroupCommitter, type UnitOutcome } from '../src/sqlite/group-committer';

interface Item extends StoredDocument {
  name: string;
  ref?: string;
}

const ITEMS = 'items';
const MERCHANT = 'merchant_a';
const SCOPE = { merchantId: MERCHANT, mode: 'test' } as const;

const message = (n: number): OutboxMessage => ({ topic: 'items.v1', key: `key-${n}`, value: JSON.stringify({ n }), headers: {} });

/**
 * Counts the transactions SQLite itself committed, independently of the store's code: in WAL mode every
 * commit appends frames to the -wal file, and the last frame of each transaction carries the database
 * size (non-zero) in its header. Frames whose salts differ from the WAL header are left over from before
 * a checkpoint and do not count (the tests stay far below the 1000-page auto-checkpoint).
 */
function walCommits(file: string): number {
  const wal = `${file}-wal`;
  if (!existsSync(wal)) return 0;
  const bytes = readFileSync(wal);
  if (bytes.length < 32) return 0;
  const pageSize = bytes.readUInt32BE(8);
  const salts = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  let commits = 0;
  for (let offset = 32; offset + 24 + pageSize <= bytes.length; offset += 24 + pageSize) {
    if (bytes.readUInt32BE(offset + 8) !== salts[0] || bytes.readUInt32BE(offset + 12) !== salts[1]) break;
    if (bytes.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return commits;
}

/** Lets started transactions run their work and queue their units (microtasks), but not the flush (setImmediate). */
async function untilQueued(): Promise<void> {
  for (let n = 0; n < 10; n++) await Promise.resolve();
}

describe('SqliteDocumentStore group commit', () => {
  let dir: string;
  let file: string;
  let store: SqliteDocumentStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vaultline-group-commit-'));
    file = join(dir, 'store.db');
    // Without the background checkpointer: a checkpoint it completes restarts the WAL, which walCommits counts.
    store = await SqliteDocumentStore.open(file, { backgroundCheckpoints: false });
    await store.register({ name: ITEMS, indexes: [{ fields: ['ref'], unique: true }] });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (doc: Partial<Item> = {}, n?: number): Promise<Item> =>
    store.transaction((uow) => {
      const inserted = uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name: 'item', ...doc });
      if (n !== undefined) uow.publish(message(n));
      return inserted;
    });

  const settle = <T>(promises: Array<Promise<T>>): Promise<Array<PromiseSettledResult<T>>> => Promise.allSettled(promises);
  const rejections = (results: Array<PromiseSettledResult<unknown>>): unknown[] =>
    results.filter((result): result is PromiseRejectedResult => result.status === 'rejected').map((result) => result.reason);

  it('when transactions are awaited one after another, then each is its own SQLite transaction', async () => {
    const before = walCommits(file);

    for (let n = 0; n < 3; n++) await insert();

    expect(walCommits(file) - before).toBe(3);
  });

  it('when 50 transactions run concurrently, then they land in one SQLite transaction and all of them are stored, outbox in call order', async () => {
    const before = walCommits(file);

    const inserted = await Promise.all(Array.from({ length: 50 }, (_, n) => insert({ name: `n${n}` }, n)));

    expect(walCommits(file) - before).toBe(1);
    expect(await store.collection<Item>(ITEMS).count(SCOPE, {})).toBe(50);
    expect(await store.collection<Item>(ITEMS).get(SCOPE, inserted[49]!.id)).toMatchObject({ name: 'n49', version: 1 });
    expect((await store.outbox.pending(100)).map((entry) => entry.message.key)).toEqual(Array.from({ length: 50 }, (_, n) => `key-${n}`));
  });

  it('when more units are queued than a group holds, then they are committed in several transactions of at most 256', async () => {
    const before = walCommits(file);

    await Promise.all(Array.from({ length: 300 }, () => insert()));

    expect(walCommits(file) - before).toBe(2);
    expect(await store.collection<Item>(ITEMS).count(SCOPE, {})).toBe(300);
  });

  it('when one unit among concurrent ones fails, then only its promise rejects, with nothing of it applied, and the others are stored', async () => {
    const ghost: Item = { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name: 'ghost', version: 1 };
    const sideEffect = newId();
    const before = walCommits(file);

    const results = await settle<unknown>([
      insert({ name: 'a' }, 1),
      store.transaction((uow) => {
        uow.insert<Item>(ITEMS, { id: sideEffect, merchant_id: MERCHANT, mode: 'test' as const, name: 'side effect' });
        uow.publish(message(2));
        uow.markProcessed('group', 'event-2');
        uow.update<Item>(ITEMS, ghost);
      }),
      insert({ name: 'b' }, 3),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rejections(results)[0]).toBeInstanceOf(ConcurrentModificationError);
    expect(walCommits(file) - before).toBe(1);
    expect((await store.collection<Item>(ITEMS).list(SCOPE, {}, { limit: 10 })).items.map((item) => item.name)).toEqual(['a', 'b']);
    expect(await store.collection<Item>(ITEMS).get(SCOPE, sideEffect)).toBeNull();
    expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-1', 'key-3']);
    expect(await store.isProcessed('group', 'event-2')).toBe(false);
  });

  it('when several units of one group fail, then each rejects with its own error and the others commit in one transaction, each seeing the units before it', async () => {
    const ghost: Item = { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name: 'ghost', version: 1 };
    const first = newId();
    const before = walCommits(file);

    const results = await settle<unknown>([
      store.transaction((uow) => uow.insert<Item>(ITEMS, { id: first, merchant_id: MERCHANT, mode: 'test' as const, name: 'first', ref: 'order-1' })),
      insert({ name: 'same ref', ref: 'order-1' }, 2),
      store.transaction((uow) => uow.update<Item>(ITEMS, ghost)),
      store.transaction((uow) =>
        uow.update<Item>(ITEMS, { id: first, merchant_id: MERCHANT, mode: 'test' as const, name: 'first, updated', ref: 'order-1', version: 1 }),
      ),
      insert({ name: 'after' }, 5),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect(rejections(results)[0]).toBeInstanceOf(DuplicateKeyError);
    expect(rejections(results)[1]).toBeInstanceOf(ConcurrentModificationError);
    expect(walCommits(file) - before).toBe(1);
    expect(await store.collection<Item>(ITEMS).get(SCOPE, first)).toMatchObject({ name: 'first, updated', version: 2 });
    expect((await store.collection<Item>(ITEMS).list(SCOPE, {}, { limit: 10 })).items.map((item) => item.name).sort()).toEqual(['after', 'first, updated']);
    expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-5']);
  });

  it('when two units of one group update the same document from the same version, then exactly one wins and the other fails with ConcurrentModificationError', async () => {
    const read = await insert({ name: 'v1' });

    const results = await settle([
      store.transaction((uow) => uow.update<Item>(ITEMS, { ...read, name: 'first' })),
      store.transaction((uow) => uow.update<Item>(ITEMS, { ...read, name: 'second' })),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(rejections(results)[0]).toBeInstanceOf(ConcurrentModificationError);
    expect(await store.collection<Item>(ITEMS).get(SCOPE, read.id)).toMatchObject({ name: 'first', version: 2 });
  });

  it('when two units of one group insert the same unique value, then exactly one wins and the other fails with DuplicateKeyError naming the fields', async () => {
    const results = await settle([insert({ name: 'first', ref: 'order-1' }, 1), insert({ name: 'second', ref: 'order-1' }, 2)]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(rejections(results)[0]).toBeInstanceOf(DuplicateKeyError);
    expect(rejections(results)[0]).toMatchObject({ extensions: { fields: ['ref'] } });
    expect((await store.collection<Item>(ITEMS).findOne(SCOPE, { ref: 'order-1' }))!.name).toBe('first');
    expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-1']);
  });

  it('when two units of one group mark the same event processed, then exactly one effect is applied', async () => {
    const consume = (name: string): Promise<void> =>
      store.transaction((uow) => {
        uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name });
        uow.markProcessed('billing', 'event-1');
      });

    const results = await settle([consume('first delivery'), consume('redelivery')]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(rejections(results)[0]).toBeInstanceOf(DuplicateKeyError);
    expect((await store.collection<Item>(ITEMS).list(SCOPE, {}, { limit: 10 })).items.map((item) => item.name)).toEqual(['first delivery']);
  });

  it('when work throws, then its unit never reaches the queue: it rejects with its own error and alone causes no SQLite transaction', async () => {
    const neverId = newId();
    const failing = (): Promise<void> =>
      store.transaction(async (uow) => {
        uow.insert<Item>(ITEMS, { id: neverId, merchant_id: MERCHANT, mode: 'test' as const, name: 'never' });
        uow.publish(message(9));
        throw new Error('use case failed');
      });
    const before = walCommits(file);

    await expect(failing()).rejects.toThrow('use case failed');
    expect(walCommits(file)).toBe(before);

    const results = await settle<unknown>([insert({ name: 'ok' }, 1), failing()]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(rejections(results)[0]).toEqual(new Error('use case failed'));
    expect(await store.collection<Item>(ITEMS).get(SCOPE, neverId)).toBeNull();
    expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-1']);
  });

  it('when units of one group publish, then commit listeners are called once; when the only publishing unit fails, they are not', async () => {
    let calls = 0;
    store.outbox.onCommit(() => calls++);

    await Promise.all(Array.from({ length: 10 }, (_, n) => insert({}, n)));
    expect(calls).toBe(1);

    await settle([insert({ ref: 'taken' }), insert({ ref: 'taken' }, 11)]);
    expect(calls).toBe(1);
  });

  it('when the store is closed with units queued, then they are committed before the connection closes and their promises resolve', async () => {
    const before = walCommits(file);
    const queued = Array.from({ length: 5 }, (_, n) => insert({ name: `queued ${n}` }));
    await untilQueued();
    expect(walCommits(file)).toBe(before);

    await store.close();

    const inserted = await Promise.all(queued);
    const reopened = await SqliteDocumentStore.open(file);
    try {
      await reopened.register({ name: ITEMS, indexes: [{ fields: ['ref'], unique: true }] });
      expect(await reopened.collection<Item>(ITEMS).count(SCOPE, {})).toBe(5);
      expect(await reopened.collection<Item>(ITEMS).get(SCOPE, inserted[4]!.id)).toMatchObject({ name: 'queued 4' });
    } finally {
      await reopened.close();
    }
  });

  it('when work finishes after the store was closed, then its transaction rejects instead of hanging', async () => {
    let finishWork!: () => void;
    const workDone = new Promise<void>((resolve) => (finishWork = resolve));
    const late = store.transaction(async (uow) => {
      await workDone;
      uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name: 'late' });
    });

    await store.close();
    finishWork();

    await expect(late).rejects.toThrow(/not open/);
  });
});

describe('GroupCommitter', () => {
  it('when the transaction of a group fails as a whole, then every unit of that group rejects with its error and the next group still commits', async () => {
    const committed: number[][] = [];
    const committer = new GroupCommitter<number>((units): UnitOutcome[] => {
      if (units.includes(0)) throw new Error('COMMIT failed');
      committed.push([...units]);
      return units.map(() => ({ ok: true }));
    }, 2);

    const results = await Promise.allSettled([0, 1, 2, 3].map((unit) => committer.commit(unit)));

    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('COMMIT failed'));
    expect(committed).toEqual([[2, 3]]);
  });
});

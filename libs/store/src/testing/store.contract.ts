import { newId } from '@vaultline/core';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  LeaseLostError,
  UnknownCollectionError,
  type Collection,
  type DocumentStore,
  type OutboxMessage,
  type StoredDocument,
  type UnitOfWork,
} from '../index';

export interface OpenedStore {
  store: DocumentStore;
  /**
   * Opens a new store on the same data, for adapters that persist (file, URL). The suite closes
   * the first store before calling it and closes the reopened one itself.
   */
  reopen?: () => Promise<DocumentStore>;
  /** Closes what is still open and removes the data (files, databases). */
  cleanup(): Promise<void>;
}

interface Item extends StoredDocument {
  name: string;
  amount: number;
  status?: string | null;
  flag?: boolean;
  ref?: string | null;
}

const ITEMS = 'items';
const MERCHANT = 'merchant_a';
const OTHER = 'merchant_b';
/** The scopes a read takes: merchant a and b in test mode (the documents' default), merchant a in live mode. */
const A = { merchantId: MERCHANT, mode: 'test' } as const;
const B = { merchantId: OTHER, mode: 'test' } as const;
const A_LIVE = { merchantId: MERCHANT, mode: 'live' } as const;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const message = (n: number): OutboxMessage => ({ topic: 'items.v1', key: `key-${n}`, value: JSON.stringify({ n }), headers: { 'x-n': String(n) } });

/**
 * The DocumentStore contract (see libs/store/src/store.port.ts), run against every adapter.
 * `open` must give a fresh, empty store each time it is called. Adapters that persist pass
 * `{ durable: true }` and a `reopen`, which adds the durability case.
 */
export function storeContract(adapterName: string, open: () => Promise<OpenedStore>, options: { durable?: boolean } = {}): void {
  describe(`DocumentStore contract: ${adapterName}`, () => {
    let opened: OpenedStore;
    let store: DocumentStore;
    let items: Collection<Item>;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
      await store.register({ name: ITEMS, indexes: [{ fields: ['ref'], unique: true }, { fields: ['status', 'amount'] }] });
      items = store.collection<Item>(ITEMS);
    });

    afterEach(async () => {
      await opened.cleanup();
    });

    const insert = (doc: Partial<Item> & { merchant_id?: string; mode?: 'test' | 'live' } = {}): Promise<Item> =>
      store.transaction((uow) => uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'item', amount: 1, ...doc }));

    describe('reads and writes', () => {
      it('when a document is inserted, then get returns it as stored with version 1', async () => {
        const inserted = await insert({ name: 'first', amount: 42, status: 'open' });

        const read = await items.get(A, inserted.id);

        expect(inserted.version).toBe(1);
        expect(read).toEqual({ id: inserted.id, merchant_id: MERCHANT, mode: 'test', name: 'first', amount: 42, status: 'open', version: 1 });
      });

      it('when the caller changes a document it read or inserted, then the stored document does not change', async () => {
        const input = { id: newId(), merchant_id: MERCHANT, mode: 'test' as const, name: 'original', amount: 1 };
        const inserted = await store.transaction((uow) => uow.insert<Item>(ITEMS, input));
        input.name = 'changed after insert';
        inserted.name = 'changed returned copy';
        const read = (await items.get(A, input.id))!;
        read.name = 'changed read copy';

        expect((await items.get(A, input.id))!.name).toBe('original');
      });

      it('when a document is updated with the version it read, then the new fields are stored and the version goes up by one', async () => {
        const inserted = await insert({ name: 'before' });

        const updated = await store.transaction((uow) => uow.update<Item>(ITEMS, { ...inserted, name: 'after' }));

        expect(updated.version).toBe(2);
        expect(await items.get(A, inserted.id)).toEqual({ ...inserted, name: 'after', version: 2 });
      });

      it('when a document is updated twice in one unit of work, then both updates apply in order', async () => {
        const inserted = await insert({ amount: 1 });

        await store.transaction((uow) => {
          const first = uow.update<Item>(ITEMS, { ...inserted, amount: 2 });
          uow.update<Item>(ITEMS, { ...first, amount: 3 });
        });

        expect(await items.get(A, inserted.id)).toMatchObject({ amount: 3, version: 3 });
      });

      it('when a document is deleted, then it is gone and count drops', async () => {
        const kept = await insert();
        const removed = await insert();

        await store.transaction((uow) => uow.delete(ITEMS, A, removed.id, removed.version));

        expect(await items.get(A, removed.id)).toBeNull();
        expect(await items.get(A, kept.id)).not.toBeNull();
        expect(await items.count(A, {})).toBe(1);
      });

      it('when an id is inserted twice, then the second commit fails with DuplicateKeyError', async () => {
        const inserted = await insert();

        await expect(insert({ id: inserted.id, name: 'again' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await items.get(A, inserted.id))!.name).toBe('item');
      });

      it('when a collection was never registered, then using it fails with UnknownCollectionError', async () => {
        await expect(store.transaction((uow) => uow.insert('nowhere', { id: newId(), merchant_id: MERCHANT, mode: 'test' }))).rejects.toBeInstanceOf(
          UnknownCollectionError,
        );
        await expect(store.collection('nowhere').get(A, newId())).rejects.toBeInstanceOf(UnknownCollectionError);
      });

      it('when registering the same collection twice, then nothing is lost', async () => {
        const inserted = await insert();

        await store.register({ name: ITEMS, indexes: [{ fields: ['ref'], unique: true }, { fields: ['status', 'amount'] }] });

        expect(await items.get(A, inserted.id)).not.toBeNull();
      });

      it('when the store is reachable, then ping resolves', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('tenant scope', () => {
      it('when another merchant asks for a document by id, then get answers null', async () => {
        const inserted = await insert();

        expect(await items.get(B, inserted.id)).toBeNull();
      });

      it("when listing, counting or finding, then only the given merchant's documents are seen", async () => {
        await insert({ name: 'mine', merchant_id: MERCHANT, mode: 'test' });
        await insert({ name: 'theirs', merchant_id: OTHER });
        await insert({ name: 'theirs', merchant_id: OTHER });

        const mine = await items.list(A, {}, { limit: 10 });
        expect(mine.items.map((item) => item.name)).toEqual(['mine']);
        expect(await items.count(A, {})).toBe(1);
        expect(await items.count(B, {})).toBe(2);
        expect(await items.findOne(A, { name: 'theirs' })).toBeNull();
      });

      it("when a unit of work updates or deletes another merchant's document, then nothing changes", async () => {
        const inserted = await insert({ name: 'owned' });

        await expect(store.transaction((uow) => uow.update<Item>(ITEMS, { ...inserted, merchant_id: OTHER, name: 'stolen' }))).rejects.toBeInstanceOf(
          ConcurrentModificationError,
        );
        await store.transaction((uow) => uow.delete(ITEMS, B, inserted.id));

        expect(await items.get(A, inserted.id)).toMatchObject({ name: 'owned', version: 1 });
      });

      it("when the merchant's other mode asks for a document by id, lists, counts or finds, then it sees nothing", async () => {
        const test = await insert({ name: 'test', ref: 'r-1' });
        const live = await insert({ name: 'live', mode: 'live' });

        expect(await items.get(A_LIVE, test.id)).toBeNull();
        expect(await items.get(A, live.id)).toBeNull();
        expect((await items.list(A_LIVE, {}, { limit: 10 })).items.map((item) => item.name)).toEqual(['live']);
        expect((await items.list(A, {}, { limit: 10 })).items.map((item) => item.name)).toEqual(['test']);
        expect(await items.count(A_LIVE, {})).toBe(1);
        expect(await items.findOne(A_LIVE, { ref: 'r-1' })).toBeNull();
      });

      it('when a unit of work updates or deletes a document under the other mode, then nothing changes', async () => {
        const inserted = await insert({ name: 'test only' });

        await expect(store.transaction((uow) => uow.update<Item>(ITEMS, { ...inserted, mode: 'live', name: 'moved' }))).rejects.toBeInstanceOf(
          ConcurrentModificationError,
        );
        await store.transaction((uow) => uow.delete(ITEMS, A_LIVE, inserted.id));

        expect(await items.get(A, inserted.id)).toMatchObject({ name: 'test only', version: 1 });
      });

      it('when test and live documents of one merchant share a unique value, then both are stored', async () => {
        await insert({ ref: 'order-1' });
        await insert({ ref: 'order-1', mode: 'live' });

        expect(await items.findOne(A, { ref: 'order-1' })).toMatchObject({ mode: 'test' });
        expect(await items.findOne(A_LIVE, { ref: 'order-1' })).toMatchObject({ mode: 'live' });
      });

      it("when a merchant's document is written without a mode, then the unit of work refuses it", async () => {
        await expect(store.transaction((uow) => uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, name: 'modeless', amount: 1 }))).rejects.toThrow(
          /needs a mode/,
        );
        expect(await items.count(A, {})).toBe(0);
      });

      it('when listing across merchants, then documents of every merchant come back in id order', async () => {
        const a = await insert({ merchant_id: MERCHANT, mode: 'test', status: 'due' });
        const b = await insert({ merchant_id: OTHER, status: 'due' });
        await insert({ merchant_id: OTHER, status: 'done' });

        const page = await items.listAcrossMerchants({ status: 'due' }, { limit: 10 });

        expect(page.items.map((item) => item.id)).toEqual([a.id, b.id]);
        expect(page.has_more).toBe(false);
      });
    });

    describe('where operators', () => {
      let docs: Record<string, Item>;

      beforeEach(async () => {
        docs = {};
        const rows: Array<Partial<Item> & { name: string }> = [
          { name: 'a', amount: 5, status: 'open', flag: true },
          { name: 'b', amount: 10, status: 'open', flag: false },
          { name: 'c', amount: 15, status: 'closed' },
          { name: 'd', amount: 20, status: null },
          { name: 'e', amount: 25 },
        ];
        for (const row of rows) docs[row.name] = await insert(row);
      });

      const names = async (where: Parameters<Collection<Item>['list']>[1]): Promise<string[]> =>
        (await items.list(A, where, { limit: 100 })).items.map((item) => item.name).sort();

      it('when a field is given a plain value, then only equal documents match', async () => {
        expect(await names({ status: 'open' })).toEqual(['a', 'b']);
        expect(await names({ amount: 15 })).toEqual(['c']);
        expect(await names({ status: { eq: 'closed' } })).toEqual(['c']);
      });

      it('when a field is compared with null, then null and missing fields match', async () => {
        expect(await names({ status: null })).toEqual(['d', 'e']);
        expect(await names({ status: { eq: null } })).toEqual(['d', 'e']);
        expect(await names({ status: { ne: null } })).toEqual(['a', 'b', 'c']);
      });

      it('when ne is used, then documents where the field is missing, null or different match', async () => {
        expect(await names({ status: { ne: 'open' } })).toEqual(['c', 'd', 'e']);
        expect(await names({ amount: { ne: 5 } })).toEqual(['b', 'c', 'd', 'e']);
      });

      it('when numbers are compared with lt, lte, gt and gte, then the bounds are respected', async () => {
        expect(await names({ amount: { lt: 15 } })).toEqual(['a', 'b']);
        expect(await names({ amount: { lte: 15 } })).toEqual(['a', 'b', 'c']);
        expect(await names({ amount: { gt: 15 } })).toEqual(['d', 'e']);
        expect(await names({ amount: { gte: 15, lt: 25 } })).toEqual(['c', 'd']);
      });

      it('when strings are compared, then they compare in code-point order and never match numbers or missing fields', async () => {
        expect(await names({ name: { gt: 'b', lte: 'd' } })).toEqual(['c', 'd']);
        expect(await names({ status: { gte: 'a' } })).toEqual(['a', 'b', 'c']);
        expect(await names({ amount: { gt: 'a' } })).toEqual([]);
        expect(await names({ amount: { lt: 'a' } })).toEqual([]);
        expect(await names({ status: { lt: 100 } })).toEqual([]);
      });

      it('when in is used, then any listed value matches, null matches missing fields, and an empty list matches nothing', async () => {
        expect(await names({ name: { in: ['a', 'c', 'zzz'] } })).toEqual(['a', 'c']);
        expect(await names({ status: { in: ['closed', null] } })).toEqual(['c', 'd', 'e']);
        expect(await names({ amount: { in: [10, 20] } })).toEqual(['b', 'd']);
        expect(await names({ name: { in: [] } })).toEqual([]);
      });

      it('when a boolean is matched, then only that boolean matches (not 1 or 0)', async () => {
        expect(await names({ flag: true })).toEqual(['a']);
        expect(await names({ flag: false })).toEqual(['b']);
        expect(await names({ flag: { ne: true } })).toEqual(['b', 'c', 'd', 'e']);
        expect(await names({ flag: { in: [false, null] } })).toEqual(['b', 'c', 'd', 'e']);
      });

      it('when several fields are given, then all conditions must hold', async () => {
        expect(await names({ status: 'open', amount: { gt: 5 } })).toEqual(['b']);
        expect(await items.count(A, { status: 'open', amount: { gt: 5 } })).toBe(1);
        expect((await items.findOne(A, { status: 'closed' }))!.id).toBe(docs.c!.id);
      });

      it('when the id field is used in a condition, then it matches the document id', async () => {
        expect(await names({ id: docs.b!.id })).toEqual(['b']);
        expect(await names({ id: { in: [docs.a!.id, docs.e!.id] } })).toEqual(['a', 'e']);
      });

      it('when a field name or operator is not plain, then the query is refused before it runs', async () => {
        const refused = { code: 'invalid_query' };
        await expect(items.list(A, { "name') OR 1=1 --": 'x' }, { limit: 10 })).rejects.toMatchObject(refused);
        await expect(items.list(A, { $where: 'true' }, { limit: 10 })).rejects.toMatchObject(refused);
        await expect(items.list(A, { name: { $gt: '' } as never }, { limit: 10 })).rejects.toMatchObject(refused);
        await expect(items.list(A, { name: { eq: { $ne: 1 } } as never }, { limit: 10 })).rejects.toMatchObject(refused);
        await expect(items.list(A, {}, { limit: 0 })).rejects.toMatchObject(refused);
      });

      it('when a value looks like SQL, then it is compared as data', async () => {
        await insert({ name: "x' OR '1'='1" });

        expect(await names({ name: "x' OR '1'='1" })).toEqual(["x' OR '1'='1"]);
        expect(await names({ name: "' OR 1=1 --" })).toEqual([]);
      });
    });

    describe('pages', () => {
      let ids: string[];

      beforeEach(async () => {
        ids = [];
        for (let n = 0; n < 25; n++) ids.push((await insert({ name: `n${n}`, amount: n, status: n % 2 === 0 ? 'even' : 'odd' })).id);
        await insert({ merchant_id: OTHER });
      });

      const walk = async (order: 'asc' | 'desc', where = {}): Promise<{ sizes: number[]; ids: string[] }> => {
        const sizes: number[] = [];
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await items.list(A, where, { limit: 10, after, order });
          sizes.push(page.items.length);
          seen.push(...page.items.map((item) => item.id));
          if (!page.has_more) {
            expect(page.next_cursor).toBeUndefined();
            break;
          }
          expect(page.next_cursor).toBe(page.items[page.items.length - 1]!.id);
          after = page.next_cursor;
        }
        return { sizes, ids: seen };
      };

      it('when paging oldest first with a cursor, then 25 documents come in creation order as 10, 10 and 5', async () => {
        const result = await walk('asc');

        expect(result.sizes).toEqual([10, 10, 5]);
        expect(result.ids).toEqual(ids);
      });

      it('when paging newest first with a cursor, then the same documents come in reverse order', async () => {
        const result = await walk('desc');

        expect(result.sizes).toEqual([10, 10, 5]);
        expect(result.ids).toEqual([...ids].reverse());
      });

      it('when paging with a condition, then pages hold only matching documents', async () => {
        const result = await walk('asc', { status: 'odd' });

        expect(result.sizes).toEqual([10, 2]);
        expect(result.ids).toEqual(ids.filter((_, n) => n % 2 === 1));
      });

      it('when the page is exactly full, then has_more is false', async () => {
        const page = await items.list(A, {}, { limit: 25 });

        expect(page.items).toHaveLength(25);
        expect(page.has_more).toBe(false);
      });

      it('when paging across merchants, then every document of every merchant is visited once', async () => {
        const seen: string[] = [];
        let after: string | undefined;
        do {
          const page = await items.listAcrossMerchants({}, { limit: 7, after });
          seen.push(...page.items.map((item) => item.id));
          after = page.next_cursor;
        } while (after);

        expect(seen).toHaveLength(26);
        expect(new Set(seen).size).toBe(26);
      });
    });

    describe('unique indexes', () => {
      it('when two merchants use the same unique value, then both documents are stored', async () => {
        await insert({ merchant_id: MERCHANT, mode: 'test', ref: 'order-1' });
        await insert({ merchant_id: OTHER, ref: 'order-1' });

        expect(await items.findOne(A, { ref: 'order-1' })).not.toBeNull();
        expect(await items.findOne(B, { ref: 'order-1' })).not.toBeNull();
      });

      it('when one merchant reuses a unique value, then the commit fails with DuplicateKeyError naming the fields and nothing of it is applied', async () => {
        await insert({ ref: 'order-1' });
        const bystander = newId();

        const failure = store.transaction((uow) => {
          uow.insert<Item>(ITEMS, { id: bystander, merchant_id: MERCHANT, mode: 'test', name: 'bystander', amount: 1 });
          uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'dup', amount: 1, ref: 'order-1' });
          uow.publish(message(1));
        });

        await expect(failure).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(failure).rejects.toMatchObject({ code: 'duplicate_key', extensions: { fields: ['ref'] } });
        expect(await items.get(A, bystander)).toBeNull();
        expect(await store.outbox.pending(10)).toEqual([]);
      });

      it('when an update moves a document onto a taken unique value, then it fails with DuplicateKeyError', async () => {
        await insert({ ref: 'taken' });
        const other = await insert({ ref: 'free' });

        await expect(store.transaction((uow) => uow.update<Item>(ITEMS, { ...other, ref: 'taken' }))).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await items.get(A, other.id))!.ref).toBe('free');
      });

      it('when one unit of work inserts the same unique value twice, then it fails as a whole', async () => {
        await expect(
          store.transaction((uow) => {
            uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'x', amount: 1, ref: 'twice' });
            uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'y', amount: 1, ref: 'twice' });
          }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.count(A, {})).toBe(0);
      });

      it('when documents lack the unique field or hold null, then they never collide', async () => {
        await insert({});
        await insert({});
        await insert({ ref: null });
        await insert({ ref: null });

        expect(await items.count(A, {})).toBe(4);
      });

      it('when a unique value is freed by a delete in the same unit of work, then it can be reused there', async () => {
        const old = await insert({ ref: 'reused' });

        await store.transaction((uow) => {
          uow.delete(ITEMS, A, old.id, old.version);
          uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'new', amount: 1, ref: 'reused' });
        });

        expect((await items.findOne(A, { ref: 'reused' }))!.name).toBe('new');
      });
    });

    describe('optimistic concurrency and atomic units of work', () => {
      it('when two updates start from the same version, then the second fails with ConcurrentModificationError and nothing of its unit of work is applied', async () => {
        const read = await insert({ name: 'v1' });
        const sideEffect = newId();
        await store.transaction((uow) => uow.update<Item>(ITEMS, { ...read, name: 'first writer' }));

        const second = store.transaction((uow) => {
          uow.insert<Item>(ITEMS, { id: sideEffect, merchant_id: MERCHANT, mode: 'test', name: 'side effect', amount: 1 });
          uow.update<Item>(ITEMS, { ...read, name: 'second writer' });
          uow.publish(message(2));
          uow.markProcessed('group', 'event-2');
        });

        await expect(second).rejects.toBeInstanceOf(ConcurrentModificationError);
        await expect(second).rejects.toMatchObject({ code: 'concurrent_modification', retryable: true });
        expect(await items.get(A, read.id)).toMatchObject({ name: 'first writer', version: 2 });
        expect(await items.get(A, sideEffect)).toBeNull();
        expect(await store.outbox.pending(10)).toEqual([]);
        expect(await store.isProcessed('group', 'event-2')).toBe(false);
      });

      it('when a delete expects a version that is no longer stored, then it fails and the document stays', async () => {
        const read = await insert();
        await store.transaction((uow) => uow.update<Item>(ITEMS, { ...read, name: 'newer' }));

        await expect(store.transaction((uow) => uow.delete(ITEMS, A, read.id, read.version))).rejects.toBeInstanceOf(ConcurrentModificationError);
        expect(await items.get(A, read.id)).not.toBeNull();
      });

      it('when an update targets a document that does not exist, then it fails with ConcurrentModificationError', async () => {
        const ghost: Item = { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'ghost', amount: 1, version: 1 };

        await expect(store.transaction((uow) => uow.update<Item>(ITEMS, ghost))).rejects.toBeInstanceOf(ConcurrentModificationError);
      });

      it('when the unit of work throws, then its error comes back and nothing it buffered is written', async () => {
        const id = newId();

        const failure = store.transaction(async (uow) => {
          uow.insert<Item>(ITEMS, { id, merchant_id: MERCHANT, mode: 'test', name: 'never', amount: 1 });
          uow.publish(message(1));
          uow.markProcessed('group', 'event-1');
          await Promise.resolve();
          throw new Error('use case failed');
        });

        await expect(failure).rejects.toThrow('use case failed');
        expect(await items.get(A, id)).toBeNull();
        expect(await store.outbox.pending(10)).toEqual([]);
        expect(await store.isProcessed('group', 'event-1')).toBe(false);
      });

      it('when reading inside a unit of work, then its own buffered writes are not visible until commit', async () => {
        const id = newId();
        let seenInside: Item | null | undefined;

        const result = await store.transaction(async (uow) => {
          uow.insert<Item>(ITEMS, { id, merchant_id: MERCHANT, mode: 'test', name: 'buffered', amount: 1 });
          seenInside = await items.get(A, id);
          return 'done';
        });

        expect(result).toBe('done');
        expect(seenInside).toBeNull();
        expect(await items.get(A, id)).not.toBeNull();
      });

      it('when a unit of work commits, then its afterCommit callbacks run once the write is readable, before the transaction settles', async () => {
        const id = newId();
        const seen: Array<Item | null> = [];
        let callbacks = 0;

        await store.transaction((uow) => {
          uow.insert<Item>(ITEMS, { id, merchant_id: MERCHANT, mode: 'test', name: 'committed', amount: 1 });
          uow.afterCommit(() => {
            callbacks++;
            void items.get(A, id).then((item) => seen.push(item));
          });
          expect(callbacks).toBe(0);
        });

        expect(callbacks).toBe(1);
        await new Promise((resolve) => setImmediate(resolve));
        expect(seen).toEqual([expect.objectContaining({ id, name: 'committed' })]);
      });

      it('when a unit of work fails or is rolled back, then its afterCommit callbacks never run', async () => {
        const read = await insert({ name: 'v1' });
        await store.transaction((uow) => uow.update<Item>(ITEMS, { ...read, name: 'first writer' }));
        let callbacks = 0;

        const thrown = store.transaction((uow) => {
          uow.afterCommit(() => callbacks++);
          throw new Error('use case failed');
        });
        const conflicting = store.transaction((uow) => {
          uow.afterCommit(() => callbacks++);
          uow.update<Item>(ITEMS, { ...read, name: 'stale writer' });
        });

        await expect(thrown).rejects.toThrow('use case failed');
        await expect(conflicting).rejects.toBeInstanceOf(ConcurrentModificationError);
        expect(callbacks).toBe(0);
      });

      it('when a unit of work has ended, then it refuses further writes', async () => {
        let leaked: UnitOfWork | undefined;
        await store.transaction((uow) => {
          leaked = uow;
        });

        expect(() => leaked!.insert(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test' })).toThrow();
      });
    });

    describe('outbox', () => {
      it('when messages are published in units of work, then they are pending in commit order with their content', async () => {
        await store.transaction((uow) => {
          uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'x', amount: 1 });
          uow.publish(message(1));
          uow.publish(message(2));
        });
        await store.transaction((uow) => uow.publish(message(3)));

        const pending = await store.outbox.pending(10);

        expect(pending.map((entry) => entry.message)).toEqual([message(1), message(2), message(3)]);
        expect(new Set(pending.map((entry) => entry.position)).size).toBe(3);
      });

      it('when pending is asked for fewer than there are, then the oldest come first', async () => {
        for (let n = 1; n <= 5; n++) await store.transaction((uow) => uow.publish(message(n)));

        const pending = await store.outbox.pending(2);

        expect(pending.map((entry) => entry.message.key)).toEqual(['key-1', 'key-2']);
      });

      it('when published messages are removed, then only the others stay pending', async () => {
        for (let n = 1; n <= 3; n++) await store.transaction((uow) => uow.publish(message(n)));
        const [first, second] = await store.outbox.pending(2);

        await store.outbox.remove([first!.position, second!.position]);
        await store.transaction((uow) => uow.publish(message(4)));

        expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-3', 'key-4']);
      });

      it('when a commit adds messages, then commit listeners are called; without messages or after unsubscribing, they are not', async () => {
        const calls: number[] = [];
        const unsubscribe = store.outbox.onCommit(() => calls.push(calls.length));

        await insert();
        expect(calls).toHaveLength(0);
        await store.transaction((uow) => uow.publish(message(1)));
        expect(calls).toHaveLength(1);
        unsubscribe();
        await store.transaction((uow) => uow.publish(message(2)));
        expect(calls).toHaveLength(1);
      });
    });

    describe('processed-event marks', () => {
      it('when an event is marked processed for a group, then only that group sees it as processed', async () => {
        expect(await store.isProcessed('billing', 'event-1')).toBe(false);

        await store.transaction((uow) => uow.markProcessed('billing', 'event-1'));

        expect(await store.isProcessed('billing', 'event-1')).toBe(true);
        expect(await store.isProcessed('webhooks', 'event-1')).toBe(false);
        expect(await store.isProcessed('billing', 'event-2')).toBe(false);
      });

      it('when the same event is marked again by the same group, then that commit fails with DuplicateKeyError and its effect is not applied', async () => {
        await store.transaction((uow) => uow.markProcessed('billing', 'event-1'));
        const effect = newId();

        const again = store.transaction((uow) => {
          uow.insert<Item>(ITEMS, { id: effect, merchant_id: MERCHANT, mode: 'test', name: 'effect', amount: 1 });
          uow.markProcessed('billing', 'event-1');
        });

        await expect(again).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.get(A, effect)).toBeNull();
      });
    });

    describe('processed-event retention', () => {
      it('when marks older than a time are pruned, then they are gone and the newer ones stay', async () => {
        await store.transaction((uow) => uow.markProcessed('billing', 'old-event'));
        await pause(30);
        const cut = new Date();
        await pause(30);
        await store.transaction((uow) => uow.markProcessed('billing', 'new-event'));

        expect(await store.pruneProcessed(cut)).toBe(1);

        expect(await store.isProcessed('billing', 'old-event')).toBe(false);
        expect(await store.isProcessed('billing', 'new-event')).toBe(true);
      });
    });

    describe('leases', () => {
      const LEASE = 'outbox-relay';

      it('when one holder takes a lease, then another gets nothing while it runs, and the holder renews it under the same fencing token', async () => {
        const token = await store.leases.acquire(LEASE, 'relay-a', 5_000);

        expect(token).toEqual(expect.any(Number));
        expect(await store.leases.acquire(LEASE, 'relay-b', 5_000)).toBeNull();
        expect(await store.leases.acquire(LEASE, 'relay-a', 5_000)).toBe(token);
        expect(await store.leases.acquire('another-job', 'relay-b', 5_000)).toEqual(expect.any(Number));
      });

      it('when the holder stops renewing, then another holder takes the lease once it ran out, with a larger fencing token', async () => {
        const first = (await store.leases.acquire(LEASE, 'relay-a', 300))!;
        await pause(450);

        const second = await store.leases.acquire(LEASE, 'relay-b', 5_000);

        expect(second).toBeGreaterThan(first);
        expect(await store.leases.acquire(LEASE, 'relay-a', 5_000)).toBeNull();
      });

      it('when the holder releases the lease, then another takes it at once; a release by a non-holder changes nothing', async () => {
        const first = (await store.leases.acquire(LEASE, 'relay-a', 60_000))!;
        await store.leases.release(LEASE, 'relay-b');
        expect(await store.leases.acquire(LEASE, 'relay-b', 60_000)).toBeNull();

        await store.leases.release(LEASE, 'relay-a');

        expect(await store.leases.acquire(LEASE, 'relay-b', 60_000)).toBeGreaterThan(first);
      });

      it('when outbox messages are removed under a fencing token, then it works while that term lasts and fails, removing nothing, once another holder took over', async () => {
        for (let n = 1; n <= 3; n++) await store.transaction((uow) => uow.publish(message(n)));
        const first = (await store.leases.acquire(LEASE, 'relay-a', 300))!;
        const [one, two, three] = await store.outbox.pending(3);
        await store.outbox.remove([one!.position], { lease: LEASE, token: first });
        await pause(450);
        const second = (await store.leases.acquire(LEASE, 'relay-b', 5_000))!;

        await expect(store.outbox.remove([two!.position], { lease: LEASE, token: first })).rejects.toBeInstanceOf(LeaseLostError);

        expect((await store.outbox.pending(10)).map((entry) => entry.message.key)).toEqual(['key-2', 'key-3']);
        await store.outbox.remove([two!.position, three!.position], { lease: LEASE, token: second });
        expect(await store.outbox.pending(10)).toEqual([]);
      });
    });

    (options.durable ? describe : describe.skip)('durability', () => {
      it('when the store is closed and opened again, then documents, unique values, outbox and marks are still there', async () => {
        if (!opened.reopen) throw new Error(`${adapterName}: durable adapters must provide reopen()`);
        const kept = await insert({ ref: 'durable', name: 'kept' });
        await store.transaction((uow) => {
          uow.publish(message(1));
          uow.markProcessed('billing', 'event-1');
        });
        await store.close();

        const reopened = await opened.reopen();
        try {
          await reopened.register({ name: ITEMS, indexes: [{ fields: ['ref'], unique: true }, { fields: ['status', 'amount'] }] });
          const again = reopened.collection<Item>(ITEMS);
          expect(await again.get(A, kept.id)).toEqual(kept);
          expect((await reopened.outbox.pending(10)).map((entry) => entry.message)).toEqual([message(1)]);
          expect(await reopened.isProcessed('billing', 'event-1')).toBe(true);
          await expect(
            reopened.transaction((uow) =>
              uow.insert<Item>(ITEMS, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'dup', amount: 1, ref: 'durable' }),
            ),
          ).rejects.toBeInstanceOf(DuplicateKeyError);
        } finally {
          await reopened.close();
        }
      });
    });

    describe('global lookups', () => {
      const GLOBAL = 'global_items';
      let globalItems: Collection<Item>;

      beforeEach(async () => {
        await store.register({
          name: GLOBAL,
          indexes: [
            { fields: ['ref'], unique: true, acrossMerchants: true },
            { fields: ['status'], acrossMerchants: true },
          ],
        });
        globalItems = store.collection<Item>(GLOBAL);
      });

      const insertGlobal = (doc: Partial<Item> & { merchant_id?: string; mode?: 'test' | 'live' } = {}): Promise<Item> =>
        store.transaction((uow) => uow.insert<Item>(GLOBAL, { id: newId(), merchant_id: MERCHANT, mode: 'test', name: 'item', amount: 1, ...doc }));

      it('when a document is read by id without its merchant, then it comes back with its own merchant_id', async () => {
        const theirs = await insertGlobal({ merchant_id: OTHER, name: 'theirs' });

        expect(await globalItems.getGlobal(theirs.id)).toEqual(theirs);
        expect(await globalItems.getGlobal(newId())).toBeNull();
      });

      it('when a document is found by a field without its merchant, then the one of whichever merchant holds it comes back', async () => {
        await insertGlobal({ merchant_id: MERCHANT, mode: 'test', ref: 'hash-a' });
        const theirs = await insertGlobal({ merchant_id: OTHER, ref: 'hash-b', status: 'open' });

        expect(await globalItems.findGlobal({ ref: 'hash-b' })).toEqual(theirs);
        expect(await globalItems.findGlobal({ ref: 'hash-b', status: 'closed' })).toBeNull();
        expect(await globalItems.findGlobal({ ref: 'hash-c' })).toBeNull();
      });

      it('when two merchants use the same value of a unique index across merchants, then the second commit fails with DuplicateKeyError', async () => {
        await insertGlobal({ merchant_id: MERCHANT, mode: 'test', ref: 'shared' });

        const failure = insertGlobal({ merchant_id: OTHER, ref: 'shared' });

        await expect(failure).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(failure).rejects.toMatchObject({ extensions: { fields: ['ref'] } });
        expect(await globalItems.count(B, {})).toBe(0);
      });

      it('when documents of several merchants lack the value of a unique index across merchants, then they never collide', async () => {
        await insertGlobal({ merchant_id: MERCHANT, mode: 'test' });
        await insertGlobal({ merchant_id: OTHER, ref: null });
        await insertGlobal({ merchant_id: OTHER });

        expect((await globalItems.listAcrossMerchants({}, { limit: 10 })).items).toHaveLength(3);
      });

      it('when a collection is registered again with the same indexes across merchants, then nothing changes', async () => {
        const kept = await insertGlobal({ ref: 'kept' });

        await store.register({
          name: GLOBAL,
          indexes: [
            { fields: ['ref'], unique: true, acrossMerchants: true },
            { fields: ['status'], acrossMerchants: true },
          ],
        });

        expect(await globalItems.findGlobal({ ref: 'kept' })).toEqual(kept);
        await expect(insertGlobal({ merchant_id: OTHER, ref: 'kept' })).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });
  });
}

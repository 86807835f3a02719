import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SqliteDocumentStore, type StoredDocument } from '../src';

interface Secretive extends StoredDocument {
  secret: string | null;
  note: string;
}

/** Overlapping 16-character pieces of the secret: a tail left behind by a shorter row is found too. */
const piecesOf = (secret: string): Buffer[] => {
  const pieces: Buffer[] = [];
  for (let at = 0; at + 16 <= secret.length; at += 8) pieces.push(Buffer.from(secret.slice(at, at + 16), 'latin1'));
  return pieces;
};

const filesHolding = (dir: string, secret: string): string[] =>
  readdirSync(dir).filter((name) => {
    const content = readFileSync(join(dir, name));
    return piecesOf(secret).some((piece) => content.includes(piece));
  });

describe('sqlite store: crypto-shredding leaves no remnant in the files', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  // The secret comes first in the document, where a shorter row written over it would not reach.
  const aDocument = (id: string, secret: string): Omit<Secretive, 'version'> => ({
    id,
    merchant_id: 'm1',
    mode: 'test' as const,
    secret,
    note: 'x'.repeat(40),
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vaultline-shred-'));
    store = await SqliteDocumentStore.open(join(dir, 'data', 'store.db'));
    await store.register({ name: 'secrets' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a shredding update shrinks a document, then neither the database file nor its WAL holds a piece of the erased field', async () => {
    const secret = randomBytes(300).toString('base64url');
    const stored = await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument('s1', secret)));
    await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument('s2', randomBytes(30).toString('base64url'))));
    expect(filesHolding(join(dir, 'data'), secret)).not.toEqual([]);

    await store.transaction((uow) => {
      uow.update<Secretive>('secrets', { ...stored, secret: null });
      uow.shredOnCommit();
    });

    expect(filesHolding(join(dir, 'data'), secret)).toEqual([]);
    expect(await store.collection<Secretive>('secrets').get({ merchantId: 'm1', mode: 'test' }, 's1')).toMatchObject({ secret: null, version: 2 });
  });

  it('when a shredding unit deletes a document that was already checkpointed into the database file, then no piece of it remains', async () => {
    const secret = randomBytes(300).toString('base64url');
    await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument('s1', secret)));
    await store.transaction((uow) => uow.shredOnCommit()); // nothing to write: a no-op, not an error
    await store.transaction((uow) => {
      uow.insert<Secretive>('secrets', aDocument('s3', 'filler'));
      uow.shredOnCommit(); // moves the first insert into the database file
    });
    expect(filesHolding(join(dir, 'data'), secret)).toEqual(['store.db']);

    await store.transaction((uow) => {
      uow.delete('secrets', { merchantId: 'm1', mode: 'test' }, 's1');
      uow.shredOnCommit();
    });

    expect(filesHolding(join(dir, 'data'), secret)).toEqual([]);
  });

  it('when another connection is checkpointing at the moment of a shredding commit, then the WAL is still cut to zero before the commit returns', async () => {
    // A second connection checkpointing without pause, as the background checkpointer does every 100 ms: a
    // TRUNCATE checkpoint that meets a checkpoint in progress gets SQLITE_BUSY at once (no busy handler).
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const rival = new Worker(
      `const { workerData } = require('node:worker_threads');
       const db = new (require(workerData.driver))(workerData.file, { timeout: 1000 });
       while (Atomics.load(workerData.stop, 0) === 0) { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }
       db.close();`,
      { eval: true, workerData: { driver: require.resolve('better-sqlite3'), file: join(dir, 'data', 'store.db'), stop } },
    );
    const walSizes: number[] = [];
    try {
      for (let round = 0; round < 40; round += 1) {
        const stored = await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument(`r${round}`, randomBytes(200).toString('base64url'))));
        await store.transaction((uow) => {
          uow.delete('secrets', { merchantId: 'm1', mode: 'test' }, stored.id);
          uow.shredOnCommit();
        });
        walSizes.push(statSync(join(dir, 'data', 'store.db-wal')).size);
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await new Promise((resolve) => rival.once('exit', resolve));
    }

    expect(walSizes.filter((size) => size > 0)).toEqual([]);
  });

  it('when a unit does not shred, then its commit leaves the WAL to the automatic checkpoint (the cost is paid by deletions only)', async () => {
    await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument('s1', 'plain')));

    expect(statSync(join(dir, 'data', 'store.db-wal')).size).toBeGreaterThan(0);
  });

  it('when a store file is opened, then the database, its -wal and -shm files are mode 0600 in a 0700 directory', async () => {
    await store.transaction((uow) => uow.insert<Secretive>('secrets', aDocument('s1', 'plain')));
    const data = join(dir, 'data');

    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const name of ['store.db', 'store.db-wal', 'store.db-shm']) {
      expect(existsSync(join(data, name))).toBe(true);
      expect((statSync(join(data, name)).mode & 0o777).toString(8)).toBe('600');
    }
  });
});

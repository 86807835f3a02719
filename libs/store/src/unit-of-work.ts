import { isMode } from '@vaultline/core';
import {
  SYSTEM_SCOPE,
  partitionOf,
  partitionOfDocument,
  type EventToPublish,
  type OutboxMessage,
  type StoreScope,
  type StoredDocument,
  type UnitOfWork,
} from './store.port';
import { outboxMessageOf } from './outbox-message';
import { InvalidQueryError, assertName } from './where';

/**
 * Inserts and updates carry the document as JSON (with its new version): serialised once, when buffered.
 * `partition` is the document's scope as the adapters keep it (partitionOf).
 */
export type WriteOp =
  | { kind: 'insert'; collection: string; id: string; partition: string; json: string }
  | { kind: 'update'; collection: string; id: string; partition: string; json: string; version: number; expectedVersion: number }
  | { kind: 'delete'; collection: string; partition: string; id: string; expectedVersion?: number };

export interface ProcessedMark {
  group: string;
  eventId: string;
}

function assertNonEmpty(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) throw new InvalidQueryError(`${name} must be a non-empty string`);
}

/** A merchant's document belongs to one mode: one written without it is a bug, refused here. */
function assertScoped(collection: string, doc: Pick<StoredDocument, 'id' | 'merchant_id' | 'mode'>): void {
  assertNonEmpty('id', doc.id);
  assertNonEmpty('merchant_id', doc.merchant_id);
  if (doc.merchant_id !== SYSTEM_SCOPE && !isMode(doc.mode)) throw new InvalidQueryError(`${collection} ${doc.id} needs a mode (test or live)`);
}

/**
 * Buffers a unit of work's writes in call order; each adapter applies them atomically at commit.
 * Documents are serialised when buffered, so later changes to the caller's objects do not leak in.
 */
export class BufferedUnitOfWork implements UnitOfWork {
  readonly ops: WriteOp[] = [];
  readonly messages: OutboxMessage[] = [];
  readonly marks: ProcessedMark[] = [];
  readonly committedCallbacks: Array<() => void> = [];
  /** shredOnCommit() was called: the adapter erases what remains of overwritten content after the commit. */
  shredding = false;
  private closed = false;

  constructor(private readonly isRegistered: (collection: string) => void) {}

  insert<T extends StoredDocument>(collection: string, doc: Omit<T, 'version'>): T {
    this.assertOpen(collection);
    assertScoped(collection, doc);
    const json = JSON.stringify({ ...doc, version: 1 });
    this.ops.push({ kind: 'insert', collection, id: doc.id, partition: partitionOfDocument(doc), json });
    return JSON.parse(json) as T;
  }

  update<T extends StoredDocument>(collection: string, doc: T): T {
    this.assertOpen(collection);
    assertScoped(collection, doc);
    if (!Number.isInteger(doc.version) || doc.version < 1) throw new InvalidQueryError(`update of ${collection} ${doc.id} needs the version it read`);
    const version = doc.version + 1;
    const json = JSON.stringify({ ...doc, version });
    this.ops.push({ kind: 'update', collection, id: doc.id, partition: partitionOfDocument(doc), json, version, expectedVersion: doc.version });
    return JSON.parse(json) as T;
  }

  delete(collection: string, scope: StoreScope, id: string, expectedVersion?: number): void {
    this.assertOpen(collection);
    if (scope !== SYSTEM_SCOPE) assertNonEmpty('merchant_id', scope.merchantId);
    assertNonEmpty('id', id);
    this.ops.push({ kind: 'delete', collection, partition: partitionOf(scope), id, expectedVersion });
  }

  publish(published: EventToPublish | OutboxMessage): void {
    this.assertOpen();
    const message = 'envelope' in published ? outboxMessageOf(published) : published;
    assertNonEmpty('topic', message.topic);
    assertNonEmpty('key', message.key);
    if (typeof message.value !== 'string') throw new InvalidQueryError('outbox message value must be a string');
    this.messages.push({ topic: message.topic, key: message.key, value: message.value, headers: { ...message.headers } });
  }

  markProcessed(consumerGroup: string, eventId: string): void {
    this.assertOpen();
    assertNonEmpty('consumer group', consumerGroup);
    assertNonEmpty('event id', eventId);
    this.marks.push({ group: consumerGroup, eventId });
  }

  afterCommit(callback: () => void): void {
    this.assertOpen();
    this.committedCallbacks.push(callback);
  }

  shredOnCommit(): void {
    this.assertOpen();
    this.shredding = true;
  }

  get hasChanges(): boolean {
    return this.ops.length > 0 || this.messages.length > 0;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0 && this.messages.length === 0 && this.marks.length === 0;
  }

  /** After commit (or failure) the unit of work refuses further writes: they would silently be lost. */
  close(): void {
    this.closed = true;
  }

  private assertOpen(collection?: string): void {
    if (this.closed) throw new InvalidQueryError('this unit of work has already ended');
    if (collection !== undefined) {
      assertName('collection', collection);
      this.isRegistered(collection);
    }
  }
}

/**
 * The transaction skeleton every adapter shares: run `work` against a fresh buffered unit of work,
 * then hand what it buffered to the adapter's atomic `commit` (skipped when nothing was buffered).
 * The unit of work is closed afterwards, whatever happened, so late writes fail loudly.
 */
export async function runUnitOfWork<R>(
  isRegistered: (collection: string) => void,
  work: (uow: UnitOfWork) => R | Promise<R>,
  commit: (uow: BufferedUnitOfWork) => void | Promise<void>,
): Promise<R> {
  const uow = new BufferedUnitOfWork(isRegistered);
  try {
    const result = await work(uow);
    if (!uow.isEmpty) await commit(uow);
    for (const callback of uow.committedCallbacks) runCommittedCallback(callback);
    return result;
  } finally {
    uow.close();
  }
}

function runCommittedCallback(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    // The transaction committed: its caller must not be told otherwise. The error surfaces on its own.
    queueMicrotask(() => {
      throw error;
    });
  }
}

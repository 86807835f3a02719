import { scopeOfDocument } from '@vaultline/core';
import { moveOutOfSystemScope, type DocumentStore, type Page, type PageRequest, type UnitOfWork } from '@vaultline/store';
import type { QueueEntry } from '../domain/delivery-queue';
import { QUEUE } from './collections';

/**
 * The delivery queue. Each entry belongs to the merchant and mode of its message (merchant_id =
 * message_merchant_id); the worker reads it without knowing the merchant, through the store's
 * global lookups over an index across merchants.
 */
export class QueueRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<QueueEntry>(QUEUE);
  }

  get(messageId: string): Promise<QueueEntry | null> {
    return this.collection.getGlobal(messageId);
  }

  listDue(nowMs: number, page: PageRequest): Promise<Page<QueueEntry>> {
    return this.collection.listAcrossMerchants({ due_at: { lte: nowMs } }, { ...page, order: 'asc' });
  }

  /** Waiting entries per endpoint (every entry is a message not yet delivered or given up), reading at most `limit`. */
  async waitingByEndpoint(limit: number): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    let after: string | undefined;
    for (let read = 0; read < limit;) {
      const page = await this.collection.listAcrossMerchants(
        { due_at: { lte: Number.MAX_SAFE_INTEGER } },
        { limit: Math.min(500, limit - read), order: 'asc', ...(after ? { after } : {}) },
      );
      for (const entry of page.items) counts.set(entry.endpoint_id, (counts.get(entry.endpoint_id) ?? 0) + 1);
      read += page.items.length;
      if (!page.has_more || !page.next_cursor) break;
      after = page.next_cursor;
    }
    return counts;
  }

  insert(uow: UnitOfWork, entry: Omit<QueueEntry, 'version' | 'merchant_id'>): QueueEntry {
    return uow.insert<QueueEntry>(QUEUE, { ...entry, merchant_id: entry.message_merchant_id });
  }

  update(uow: UnitOfWork, entry: QueueEntry): QueueEntry {
    return uow.update<QueueEntry>(QUEUE, entry);
  }

  delete(uow: UnitOfWork, entry: QueueEntry): void {
    uow.delete(QUEUE, scopeOfDocument(entry), entry.id, entry.version);
  }
}

/**
 * Start-up migration (idempotent): entries earlier versions kept under the system scope move to their
 * message's merchant, in test mode (every webhook of those versions was a test-mode one, see
 * assignTestModeToEarlierDocuments).
 */
export function moveSystemScopedQueueEntries(store: DocumentStore): Promise<number> {
  return moveOutOfSystemScope<QueueEntry>(store, QUEUE, ({ version: _version, ...entry }) => ({
    ...entry,
    merchant_id: entry.message_merchant_id,
    mode: entry.mode ?? 'test',
  }));
}

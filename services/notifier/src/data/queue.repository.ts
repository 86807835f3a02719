import { SYSTEM_SCOPE, type DocumentStore, type Page, type PageRequest, type UnitOfWork } from '@vaultline/store';
import type { QueueEntry } from '../domain/delivery-queue';
import { QUEUE } from './collections';

/** The delivery queue; background work, so its entries belong to the system scope. */
export class QueueRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<QueueEntry>(QUEUE);
  }

  get(messageId: string): Promise<QueueEntry | null> {
    return this.collection.get(SYSTEM_SCOPE, messageId);
  }

  listDue(nowMs: number, page: PageRequest): Promise<Page<QueueEntry>> {
    return this.collection.list(SYSTEM_SCOPE, { due_at: { lte: nowMs } }, { ...page, order: 'asc' });
  }

  insert(uow: UnitOfWork, entry: Omit<QueueEntry, 'version' | 'merchant_id'>): QueueEntry {
    return uow.insert<QueueEntry>(QUEUE, { ...entry, merchant_id: SYSTEM_SCOPE });
  }

  update(uow: UnitOfWork, entry: QueueEntry): QueueEntry {
    return uow.update<QueueEntry>(QUEUE, entry);
  }

  delete(uow: UnitOfWork, entry: QueueEntry): void {
    uow.delete(QUEUE, SYSTEM_SCOPE, entry.id, entry.version);
  }
}

import { ConcurrentModificationError, DuplicateKeyError, SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from './store.port';

/**
 * Start-up migration for a collection whose documents earlier versions kept under SYSTEM_SCOPE with
 * their merchant in another field (before the store had global lookups). `rewrite` gives a document
 * as it is stored now, under its merchant, or null to leave it where it is. Each document moves in
 * its own unit of work (delete at its version, insert under the same id), so a crash midway leaves it
 * in one place or the other, and two instances migrating at once do not move it twice. Idempotent:
 * once moved, nothing is left to move. Returns how many documents moved.
 */
export async function moveOutOfSystemScope<T extends StoredDocument>(
  store: DocumentStore,
  collection: string,
  rewrite: (doc: T) => Omit<T, 'version'> | null,
): Promise<number> {
  const documents = store.collection<T>(collection);
  let moved = 0;
  let after: string | undefined;
  for (;;) {
    const page = await documents.list(SYSTEM_SCOPE, {}, { limit: 100, ...(after ? { after } : {}) });
    for (const doc of page.items) {
      const next = rewrite(doc);
      if (!next || next.merchant_id === SYSTEM_SCOPE) continue;
      try {
        await store.transaction((uow) => {
          uow.delete(collection, SYSTEM_SCOPE, doc.id, doc.version);
          uow.insert<T>(collection, next);
        });
        moved++;
      } catch (error) {
        // Another instance moved it (or it changed) meanwhile: it is no longer ours to move.
        if (!(error instanceof ConcurrentModificationError || error instanceof DuplicateKeyError)) throw error;
      }
    }
    if (!page.has_more || !page.next_cursor) return moved;
    after = page.next_cursor;
  }
}

import type { Mode } from '@vaultline/core';
import { ConcurrentModificationError, SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from './store.port';

const PAGE = 100;

/**
 * Start-up migration for documents written before every merchant resource had a mode (test or live).
 * `modeOf` gives the mode of one such document (its recorded mode when it has one, else usually 'test').
 * Each document gets it in its own unit of work: a test document is updated in place (its partition
 * does not change); a live one is deleted from the test partition at the version read and inserted
 * under the same id in the live partition (its version starts again at 1). A merchant document without
 * a mode cannot be written by anything else (the unit of work refuses it), so a conflict can only come
 * from another instance migrating the same document: that document is skipped. The system's own
 * documents (SYSTEM_SCOPE) have no mode and are left alone. Idempotent: once every document has a
 * mode, nothing matches. Returns how many documents got one.
 */
export async function assignMissingModes<T extends StoredDocument>(store: DocumentStore, collection: string, modeOf: (doc: T) => Mode): Promise<number> {
  const documents = store.collection<T>(collection);
  let assigned = 0;
  let after: string | undefined;
  for (;;) {
    // eq null matches a missing field in every adapter (where.ts).
    const page = await documents.listAcrossMerchants({ mode: null }, { limit: PAGE, ...(after ? { after } : {}) });
    for (const doc of page.items) {
      if (doc.merchant_id === SYSTEM_SCOPE) continue;
      if (await assignMode(store, collection, doc, modeOf(doc))) assigned++;
    }
    if (!page.has_more || !page.next_cursor) return assigned;
    after = page.next_cursor;
  }
}

async function assignMode<T extends StoredDocument>(store: DocumentStore, collection: string, doc: T, mode: Mode): Promise<boolean> {
  try {
    await store.transaction((uow) => {
      if (mode === 'test') {
        uow.update<T>(collection, { ...doc, mode });
        return;
      }
      const { version, ...fields } = doc;
      uow.delete(collection, { merchantId: doc.merchant_id, mode: 'test' }, doc.id, version);
      uow.insert<T>(collection, { ...fields, mode });
    });
    return true;
  } catch (error) {
    // Another instance migrated it meanwhile.
    if (error instanceof ConcurrentModificationError) return false;
    throw error;
  }
}

/**
 * Start-up migration for documents that recorded their mode before the store kept each mode apart (the
 * payments of live keys): such a document says `live` but sits in its merchant's test partition, where
 * no live read finds it. Each one matching `where` that its own scope cannot read is moved there (deleted
 * at the version read, inserted under the same id; its version starts again at 1). Idempotent. Returns
 * how many moved.
 */
export async function relocateRecordedModes<T extends StoredDocument>(store: DocumentStore, collection: string): Promise<number> {
  const documents = store.collection<T>(collection);
  let moved = 0;
  let after: string | undefined;
  for (;;) {
    const page = await documents.listAcrossMerchants({ mode: 'live' }, { limit: PAGE, ...(after ? { after } : {}) });
    for (const doc of page.items) {
      if (doc.merchant_id === SYSTEM_SCOPE || (await documents.get({ merchantId: doc.merchant_id, mode: 'live' }, doc.id))) continue;
      try {
        await store.transaction((uow) => {
          const { version, ...fields } = doc;
          uow.delete(collection, { merchantId: doc.merchant_id, mode: 'test' }, doc.id, version);
          uow.insert<T>(collection, fields);
        });
        moved++;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    if (!page.has_more || !page.next_cursor) return moved;
    after = page.next_cursor;
  }
}

import type { DocumentStore, StoredDocument } from '../store.port';
import type { BufferedUnitOfWork } from '../unit-of-work';

/**
 * Writes documents as versions before modes did: a merchant document without `mode`, in its merchant's
 * (test) partition. The unit of work refuses such a document today, so this goes under it; for tests of
 * start-up migrations only.
 */
export async function insertWrittenBeforeModes<T extends StoredDocument>(
  store: DocumentStore,
  collection: string,
  docs: ReadonlyArray<Omit<T, 'version' | 'mode'>>,
): Promise<void> {
  await store.transaction((uow) => {
    const buffered = uow as BufferedUnitOfWork;
    for (const doc of docs) {
      buffered.ops.push({ kind: 'insert', collection, id: doc.id, partition: doc.merchant_id, json: JSON.stringify({ ...doc, version: 1 }) });
    }
  });
}

import type { DocumentStore, ProcessedRetention } from './store.port';
import { MemoryDocumentStore } from './memory/memory-store';
import { SqliteDocumentStore } from './sqlite/sqlite-store';

export interface OpenStoreOptions {
  /** Processed-event marks are dropped after this (SQLite, memory: an hourly job; MongoDB: the TTL index the migrate command makes). */
  processedRetention?: ProcessedRetention;
  /**
   * MongoDB only: `create` makes collections and indexes as they are registered (the migrate command,
   * tests); `verify` (production services) makes nothing and fails start naming the missing ones. SQLite
   * and memory always create theirs at start: they are local files, with no other process to wait for.
   * `plan` (MongoDB and SQLite; `migrate --dry-run`): nothing is created, changed or dropped; register() only
   * works out the index changes (indexSteps()).
   */
  indexes?: 'create' | 'verify' | 'plan';
}

/**
 * Picks the adapter from a store URL:
 *   memory://                    in-process, lost on exit (tests)
 *   sqlite:/path/to/file.db      better-sqlite3 file (embedded and local profiles)
 *   sqlite::memory:              SQLite in memory (tests)
 *   mongodb://host/db?replicaSet=rs0   MongoDB through mongoose (production)
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<DocumentStore> {
  const { processedRetention } = options;
  if (url.startsWith('memory:')) return new MemoryDocumentStore({ ...(processedRetention ? { processedRetention } : {}) });
  if (url.startsWith('sqlite:'))
    return SqliteDocumentStore.open(url.slice('sqlite:'.length), {
      ...(processedRetention ? { processedRetention } : {}),
      ...(options.indexes === 'plan' ? { planOnly: true } : {}),
    });
  if (url.startsWith('mongodb://') || url.startsWith('mongodb+srv://')) {
    // Loaded lazily so that profiles without MongoDB never load the driver.
    const { MongoDocumentStore } = await import('./mongo/mongo-store');
    return MongoDocumentStore.connect(url, options);
  }
  throw new Error(`unsupported store URL scheme: ${url.split(':')[0]}: (use memory://, sqlite:<file>, mongodb://)`);
}

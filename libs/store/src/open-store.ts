import type { DocumentStore } from './store.port';
import { MemoryDocumentStore } from './memory/memory-store';
import { SqliteDocumentStore } from './sqlite/sqlite-store';

/**
 * Picks the adapter from a store URL:
 *   memory://                    in-process, lost on exit (tests)
 *   sqlite:/path/to/file.db      better-sqlite3 file (embedded and local profiles)
 *   sqlite::memory:              SQLite in memory (tests)
 *   mongodb://host/db?replicaSet=rs0   MongoDB through mongoose (production)
 */
export async function openStore(url: string): Promise<DocumentStore> {
  if (url.startsWith('memory:')) return new MemoryDocumentStore();
  if (url.startsWith('sqlite:')) return SqliteDocumentStore.open(url.slice('sqlite:'.length));
  if (url.startsWith('mongodb://') || url.startsWith('mongodb+srv://')) {
    // Loaded lazily so that profiles without MongoDB never load the driver.
    const { MongoDocumentStore } = await import('./mongo/mongo-store');
    return MongoDocumentStore.connect(url);
  }
  throw new Error(`unsupported store URL scheme: ${url.split(':')[0]}: (use memory://, sqlite:<file>, mongodb://)`);
}

import type { CollectionSpec } from '../store.port';
import { assertIndexes, indexName } from '../collection-naming';
import { fieldExpr } from './sqlite-where';

export const OUTBOX_TABLE = '_vl_outbox';
export const PROCESSED_TABLE = '_vl_processed_events';
export const COLLECTIONS_TABLE = '_vl_collections';
export const LEASES_TABLE = '_vl_leases';

export const INTERNAL_SCHEMA = `
  CREATE TABLE IF NOT EXISTS ${OUTBOX_TABLE} (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    headers TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS ${PROCESSED_TABLE} (
    consumer_group TEXT NOT NULL,
    event_id TEXT NOT NULL,
    processed_at INTEGER NOT NULL,
    PRIMARY KEY (consumer_group, event_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS ${PROCESSED_TABLE}_at ON ${PROCESSED_TABLE} (processed_at);
  CREATE TABLE IF NOT EXISTS ${LEASES_TABLE} (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    token INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS ${COLLECTIONS_TABLE} (
    name TEXT PRIMARY KEY,
    spec TEXT NOT NULL
  );
`;

/**
 * DDL for a collection: the whole document as JSON plus the columns the store itself needs.
 * Every index starts with merchant_id, so unique indexes are unique per merchant, except an
 * `acrossMerchants` one (global lookups; unique over every merchant). SQLite treats NULLs as
 * distinct, so documents lacking an indexed field never collide.
 */
export function collectionDdl(spec: CollectionSpec): string[] {
  const table = `"${spec.name}"`;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS "ix_${spec.name}_merchant" ON ${table} (merchant_id, id)`,
  ];
  assertIndexes(spec.name, spec.indexes ?? []);
  for (const index of spec.indexes ?? []) {
    // A trailing id lets equality lookups come back in page order without a sort (not for unique ones: id would make every key unique).
    const columns = [...(index.acrossMerchants ? [] : ['merchant_id']), ...index.fields.map(fieldExpr), ...(index.unique ? [] : ['id'])].join(', ');
    statements.push(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${indexName(spec.name, index)}" ON ${table} (${columns})`);
  }
  return statements;
}

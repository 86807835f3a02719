import { createHash } from 'node:crypto';
import type { IndexSpec } from './store.port';
import { InvalidQueryError, assertName } from './where';

/** Collection names become table / collection names; the adapters' own tables use the _vl_ prefix. */
export function assertCollectionName(name: string): void {
  assertName('collection', name);
  if (/^(sqlite_|_vl_|system\.)/i.test(name)) throw new InvalidQueryError(`collection name ${name} uses a reserved prefix`);
}

/** Index names are derived from the definition, so registering the same spec again is a no-op. */
export function indexName(collection: string, index: IndexSpec): string {
  // acrossMerchants joins the digest only when set, so the names of existing indexes do not change.
  const definition = index.acrossMerchants ? [index.fields, Boolean(index.unique), 'across_merchants'] : [index.fields, Boolean(index.unique)];
  const digest = createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 8);
  return `${index.unique ? 'ux' : 'ix'}_${collection}_${index.fields.join('_')}_${digest}`;
}

/** The definition adapters keep (and compare on restart): booleans made explicit, nothing else. */
export function savedIndex(index: IndexSpec): IndexSpec {
  return { fields: [...index.fields], unique: Boolean(index.unique), ...(index.acrossMerchants ? { acrossMerchants: true } : {}) };
}

export function assertIndexes(collection: string, indexes: IndexSpec[]): void {
  for (const index of indexes) {
    if (!Array.isArray(index.fields) || index.fields.length === 0) throw new InvalidQueryError(`an index of ${collection} has no fields`);
    index.fields.forEach((field) => assertName('field', field));
  }
}

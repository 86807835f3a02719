/**
 * What a migrate changes in a collection's indexes, planned from what the release declares and what the
 * database has (pure: the adapters list and apply). An index is the same when its keys (in order) and its
 * options are, whatever its name: one made by hand with the declared shape counts as present. The store
 * owns the indexes whose names it gives (`ix_…`, `ux_…`): one of those it no longer declares is dropped (a
 * unique constraint a release removed must stop holding); one whose name it declares with another shape is
 * replaced. Nothing else (`_id_`, an operator's own index) is ever touched.
 */
export interface IndexShape {
  name: string;
  /** Field → direction (1), in index order. */
  key: Record<string, number>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: unknown;
  expireAfterSeconds?: number;
  collation?: unknown;
}

export type IndexStep =
  | { action: 'create'; collection: string; index: IndexShape }
  | { action: 'replace'; collection: string; from: IndexShape; index: IndexShape; differs: string[] }
  | { action: 'drop'; collection: string; index: IndexShape };

/** Names the store gives its indexes (collection-naming.ts), and so may drop or replace. */
export const ownedIndex = (name: string): boolean => /^(ix|ux)_/.test(name);

/** JSON with object keys sorted: two filters that differ only in key order are the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** The ways two indexes differ (empty: the same index). */
export function indexDifferences(declared: IndexShape, found: IndexShape): string[] {
  const differences: string[] = [];
  const keys = (shape: IndexShape) => canonical(Object.entries(shape.key).map(([field, direction]) => [field, Number(direction)]));
  if (keys(declared) !== keys(found)) differences.push(`keys ${keys(found)} → ${keys(declared)}`);
  if (Boolean(declared.unique) !== Boolean(found.unique)) differences.push(`unique ${Boolean(found.unique)} → ${Boolean(declared.unique)}`);
  if (Boolean(declared.sparse) !== Boolean(found.sparse)) differences.push(`sparse ${Boolean(found.sparse)} → ${Boolean(declared.sparse)}`);
  for (const option of ['partialFilterExpression', 'expireAfterSeconds', 'collation'] as const) {
    if (canonical(declared[option]) !== canonical(found[option])) differences.push(`${option} ${canonical(found[option])} → ${canonical(declared[option])}`);
  }
  return differences;
}

export function planIndexes(collection: string, declared: readonly IndexShape[], existing: readonly IndexShape[]): IndexStep[] {
  const steps: IndexStep[] = [];
  const kept = new Set<IndexShape>();
  const missing: IndexShape[] = [];
  for (const index of declared) {
    const same = existing.find((found) => !kept.has(found) && indexDifferences(index, found).length === 0);
    if (same) kept.add(same);
    else missing.push(index);
  }
  for (const index of missing) {
    const named = existing.find((found) => !kept.has(found) && found.name === index.name);
    if (named) {
      kept.add(named);
      steps.push({ action: 'replace', collection, from: named, index, differs: indexDifferences(index, named) });
    } else {
      steps.push({ action: 'create', collection, index });
    }
  }
  for (const found of existing) if (!kept.has(found) && ownedIndex(found.name)) steps.push({ action: 'drop', collection, index: found });
  // Drops first: a replaced or dropped unique index must not hold while the new ones are built.
  const order = { drop: 0, replace: 1, create: 2 } as const;
  return steps.sort((a, b) => order[a.action] - order[b.action]);
}

/** A step in a line of the migrate's plan (`migrate --dry-run`) and log. */
export function describeIndexStep(step: IndexStep): string {
  const shape = (index: IndexShape) => `${Object.keys(index.key).join(', ')}${index.unique ? ', unique' : ''}`;
  if (step.action === 'create') return `create ${step.collection}.${step.index.name} (${shape(step.index)})`;
  if (step.action === 'drop') return `drop ${step.collection}.${step.index.name} (${shape(step.index)}): no longer declared`;
  return `replace ${step.collection}.${step.index.name}: ${step.differs.join('; ')}`;
}

import type { Condition, Operator } from '../where';

const MONGO_OPERATORS: Record<Operator, string> = { eq: '$eq', ne: '$ne', lt: '$lt', lte: '$lte', gt: '$gt', gte: '$gte', in: '$in' };

/** Our `id` is MongoDB's `_id`; every other field keeps its name. */
export function mongoField(field: string): string {
  return field === 'id' ? '_id' : field;
}

export type MongoFilter = Record<string, unknown>;

/** The values a unique index holds: as in SQLite, documents whose field is missing or null never collide. */
const INDEXED_TYPES = { $type: ['string', 'number', 'bool'] } as const;

/** A unique index's partialFilterExpression: every one of its fields holds a string, number or boolean. */
export function uniqueIndexFilter(fields: readonly string[]): MongoFilter {
  return Object.fromEntries(fields.map((field) => [field, INDEXED_TYPES]));
}

/**
 * Builds a MongoDB filter: `base` equalities (merchant scope) plus one clause per condition.
 * Field names passed /^[a-z_][a-z0-9_]*$/i (no `$` operators, no dotted paths) and values are
 * scalars, so nothing from a caller can become an operator. MongoDB's semantics match the contract:
 * $eq null and $in [null] match missing fields, $ne matches them, ordering compares like types only.
 *
 * A condition that can only match a string, number or boolean also gets the unique indexes'
 * partial filter clause for its field. The planner uses a partial index only for a query it can
 * prove to be a subset of the index's filter, and it proves nothing about a $type filter except
 * from the same $type clause (expression_algo.cpp isSubsetOf: comparisons, $exists and $in on
 * the index side only, else `lhs->equivalent(rhs)`): without it, `findGlobal({ key_hash })` on
 * an acrossMerchants unique index scans the collection. The clause never changes the result.
 */
export function mongoFilter(conditions: readonly Condition[], base: MongoFilter = {}, extra: MongoFilter[] = []): MongoFilter {
  const clauses: MongoFilter[] = conditions.map(({ field, op, value }) => ({ [mongoField(field)]: { [MONGO_OPERATORS[op]]: value } }));
  const typed = new Set(conditions.filter(matchesOnlyIndexedValues).map(({ field }) => field));
  for (const field of typed) clauses.push(uniqueIndexFilter([field]));
  clauses.push(...extra);
  return clauses.length > 0 ? { ...base, $and: clauses } : { ...base };
}

function matchesOnlyIndexedValues({ field, op, value }: Condition): boolean {
  if (field === 'id' || op === 'ne') return false;
  if (op === 'in') return Array.isArray(value) && value.length > 0 && value.every((entry) => entry !== null);
  return value !== null;
}

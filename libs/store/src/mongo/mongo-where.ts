import type { Condition, Operator } from '../where';

const MONGO_OPERATORS: Record<Operator, string> = { eq: '$eq', ne: '$ne', lt: '$lt', lte: '$lte', gt: '$gt', gte: '$gte', in: '$in' };

/** Our `id` is MongoDB's `_id`; every other field keeps its name. */
export function mongoField(field: string): string {
  return field === 'id' ? '_id' : field;
}

export type MongoFilter = Record<string, unknown>;

/**
 * Builds a MongoDB filter: `base` equalities (merchant scope) plus one clause per condition.
 * Field names passed /^[a-z_][a-z0-9_]*$/i (no `$` operators, no dotted paths) and values are
 * scalars, so nothing from a caller can become an operator. MongoDB's semantics match the contract:
 * $eq null and $in [null] match missing fields, $ne matches them, ordering compares like types only.
 */
export function mongoFilter(conditions: readonly Condition[], base: MongoFilter = {}, extra: MongoFilter[] = []): MongoFilter {
  const clauses: MongoFilter[] = conditions.map(({ field, op, value }) => ({ [mongoField(field)]: { [MONGO_OPERATORS[op]]: value } }));
  clauses.push(...extra);
  return clauses.length > 0 ? { ...base, $and: clauses } : { ...base };
}

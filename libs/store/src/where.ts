import { AppError } from '@vaultline/core';
import type { FieldCondition, Range, Scalar, Where } from './store.port';

/** A query the store refuses to run: a programming error, never caused by end-user input. */
export class InvalidQueryError extends AppError {
  constructor(detail: string) {
    super('invalid_query', 500, detail);
  }
}

const NAME = /^[a-z_][a-z0-9_]*$/i;

/** Field and collection names reach SQL and MongoDB filters as identifiers, so only plain names pass. */
export function assertName(kind: 'field' | 'collection', name: string): void {
  if (typeof name !== 'string' || !NAME.test(name)) throw new InvalidQueryError(`invalid ${kind} name: ${JSON.stringify(name)}`);
}

export type Operator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

/**
 * One condition on one top-level field. Semantics every adapter keeps:
 * - eq null matches a null or missing field; ne null matches a present, non-null field;
 * - ne v matches fields that are missing, null or different from v;
 * - lt/lte/gt/gte compare numbers with numbers and strings with strings (code-point order);
 * - in matches any listed value (null in the list matches a missing field); an empty list matches nothing.
 */
export interface Condition {
  field: string;
  op: Operator;
  value: Scalar | Scalar[];
}

const OPERATORS: ReadonlySet<string> = new Set<Operator>(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in']);

function isScalar(value: unknown): value is Scalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  return typeof value === 'number' && Number.isFinite(value);
}

function assertScalar(field: string, op: string, value: unknown): asserts value is Scalar {
  if (!isScalar(value)) throw new InvalidQueryError(`invalid value for ${field}.${op}: only strings, finite numbers, booleans and null`);
}

function assertOrderable(field: string, op: string, value: unknown): asserts value is string | number {
  if (typeof value === 'string') return;
  if (typeof value === 'number' && Number.isFinite(value)) return;
  throw new InvalidQueryError(`invalid value for ${field}.${op}: only strings and finite numbers can be compared`);
}

function isRange(condition: FieldCondition): condition is Range {
  return typeof condition === 'object' && condition !== null;
}

/** Validates a Where (names, operators, value types) and flattens it into conditions. */
export function parseWhere(where: Where): Condition[] {
  if (typeof where !== 'object' || where === null || Array.isArray(where)) throw new InvalidQueryError('where must be an object');
  const conditions: Condition[] = [];
  for (const [field, condition] of Object.entries(where)) {
    assertName('field', field);
    if (condition === undefined) throw new InvalidQueryError(`undefined condition for ${field}`);
    if (!isRange(condition)) {
      assertScalar(field, 'eq', condition);
      conditions.push({ field, op: 'eq', value: condition });
      continue;
    }
    if (Array.isArray(condition)) throw new InvalidQueryError(`invalid condition for ${field}: use { in: [...] }`);
    const entries = Object.entries(condition);
    if (entries.length === 0) throw new InvalidQueryError(`empty condition for ${field}`);
    for (const [op, value] of entries) {
      if (!OPERATORS.has(op)) throw new InvalidQueryError(`unknown operator ${JSON.stringify(op)} for ${field}`);
      if (op === 'in') {
        if (!Array.isArray(value)) throw new InvalidQueryError(`${field}.in must be an array`);
        for (const item of value) assertScalar(field, op, item);
        conditions.push({ field, op, value: value as Scalar[] });
      } else if (op === 'eq' || op === 'ne') {
        assertScalar(field, op, value);
        conditions.push({ field, op, value });
      } else {
        assertOrderable(field, op, value);
        conditions.push({ field, op: op as Operator, value });
      }
    }
  }
  return conditions;
}

import type { Scalar } from '../store.port';
import type { Condition } from '../where';

type Doc = Record<string, unknown>;

function fieldValue(doc: Doc, field: string): Scalar | undefined {
  return doc[field] as Scalar | undefined;
}

function isNullish(value: unknown): boolean {
  return value === null || value === undefined;
}

function equals(actual: unknown, expected: Scalar): boolean {
  return expected === null ? isNullish(actual) : actual === expected;
}

/** Ordering compares like with like only (numbers with numbers, strings with strings), as MongoDB does. */
function compare(actual: unknown, expected: string | number): number | null {
  if (typeof actual === 'number' && typeof expected === 'number') return actual - expected;
  if (typeof actual === 'string' && typeof expected === 'string') return compareStrings(actual, expected);
  return null;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** Code-point (UTF-8 byte) order, the order SQLite (BINARY) and MongoDB (simple collation) use. */
export function compareStrings(a: string, b: string): number {
  if (NON_ASCII.test(a) || NON_ASCII.test(b)) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : a > b ? 1 : 0;
}

export function matches(doc: Doc, conditions: readonly Condition[]): boolean {
  for (const { field, op, value } of conditions) {
    const actual = fieldValue(doc, field);
    switch (op) {
      case 'eq':
        if (!equals(actual, value as Scalar)) return false;
        break;
      case 'ne':
        if (equals(actual, value as Scalar)) return false;
        break;
      case 'in':
        if (!(value as Scalar[]).some((candidate) => equals(actual, candidate))) return false;
        break;
      default: {
        const order = compare(actual, value as string | number);
        if (order === null) return false;
        if (op === 'lt' && !(order < 0)) return false;
        if (op === 'lte' && !(order <= 0)) return false;
        if (op === 'gt' && !(order > 0)) return false;
        if (op === 'gte' && !(order >= 0)) return false;
      }
    }
  }
  return true;
}

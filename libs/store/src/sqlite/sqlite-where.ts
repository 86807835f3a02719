import type { Scalar } from '../store.port';
import type { Condition } from '../where';

/** Values better-sqlite3 binds; booleans never reach a parameter (they are matched by JSON type). */
export type SqlParam = string | number | null;

const COLUMNS = new Set(['id', 'merchant_id', 'version']);

/**
 * The SQL expression for a top-level field. Field names were validated against /^[a-z_][a-z0-9_]*$/i
 * before reaching here, so embedding them in the JSON path is safe; values are always bound.
 * Index definitions use the same function, so the planner matches query and index expressions.
 */
export function fieldExpr(field: string): string {
  return COLUMNS.has(field) ? field : `json_extract(data, '$.${field}')`;
}

function typeExpr(field: string): string {
  return `json_type(data, '$.${field}')`;
}

function booleanMatch(field: string, value: boolean): string {
  return `${typeExpr(field)} = '${value ? 'true' : 'false'}'`;
}

/** Like-with-like ordering (numbers with numbers, strings with strings), as in MongoDB and the memory store. */
function typeGuard(field: string, value: string | number): string {
  if (COLUMNS.has(field)) return '';
  return typeof value === 'number' ? ` AND ${typeExpr(field)} IN ('integer', 'real')` : ` AND ${typeExpr(field)} = 'text'`;
}

const COMPARATORS = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

function conditionSql(condition: Condition, params: SqlParam[]): string {
  const { field, op } = condition;
  const expr = fieldExpr(field);
  switch (op) {
    case 'eq': {
      const value = condition.value as Scalar;
      if (value === null) return `${expr} IS NULL`;
      if (typeof value === 'boolean') return booleanMatch(field, value);
      params.push(value);
      return `${expr} = ?`;
    }
    case 'ne': {
      const value = condition.value as Scalar;
      if (value === null) return `${expr} IS NOT NULL`;
      if (typeof value === 'boolean') return `${typeExpr(field)} IS NOT '${value ? 'true' : 'false'}'`;
      params.push(value);
      return `${expr} IS NOT ?`;
    }
    case 'in': {
      const values = condition.value as Scalar[];
      const parts: string[] = [];
      const plain = values.filter((value): value is string | number => value !== null && typeof value !== 'boolean');
      if (plain.length > 0) {
        params.push(...plain);
        parts.push(`${expr} IN (${plain.map(() => '?').join(', ')})`);
      }
      if (values.includes(null)) parts.push(`${expr} IS NULL`);
      for (const flag of [true, false]) if (values.includes(flag)) parts.push(booleanMatch(field, flag));
      return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
    }
    default: {
      const value = condition.value as string | number;
      params.push(value);
      return `(${expr} ${COMPARATORS[op]} ?${typeGuard(field, value)})`;
    }
  }
}

/** Translates validated conditions to a SQL fragment (joined by AND) and its bound parameters. */
export function whereSql(conditions: readonly Condition[], params: SqlParam[]): string[] {
  return conditions.map((condition) => conditionSql(condition, params));
}

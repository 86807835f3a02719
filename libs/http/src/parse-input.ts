import type { z } from 'zod';
import { ValidationError } from '@vaultline/core';

/**
 * Parses untrusted input with a zod schema. On failure throws a 422 ValidationError for the
 * first issue: `field` is its dotted path, the detail names the field and never echoes the value.
 * A schema can choose the error code: `ctx.addIssue({ code: 'custom', message, params: { code: 'x' } })`
 * or `.refine(fn, { message, params: { code: 'x' } })`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new ValidationError('body', 'The input is invalid.');
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path.push(issue.keys[0]);
  const field = path.length > 0 ? path.join('.') : 'body';
  throw new ValidationError(field, describe(issue, field, valueAt(value, issue.path)), customCode(issue));
}

function customCode(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'custom') return undefined;
  const code = (issue.params as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(issue: z.core.$ZodIssue, field: string, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (received === undefined) return `${field} is required.`;
      return `${field} must be ${article(issue.expected)}.`;
    case 'unrecognized_keys':
      return `${field} is not a known field.`;
    case 'too_small':
      return `${field} is too small: ${bound(issue.origin, '>=', issue.minimum, issue.inclusive)}.`;
    case 'too_big':
      return `${field} is too big: ${bound(issue.origin, '<=', issue.maximum, issue.inclusive)}.`;
    case 'invalid_format':
      return `${field} must be a valid ${issue.format}.`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(issue.divisor)}.`;
    case 'custom':
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `${field} is invalid.`;
    default:
      return `${field} is invalid.`;
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function bound(origin: string, op: '>=' | '<=', limit: number | bigint, inclusive?: boolean): string {
  const strictOp = inclusive === false ? op[0] : op;
  const unit = origin === 'string' ? ' characters' : origin === 'array' || origin === 'set' ? ' items' : '';
  const subject = origin === 'string' ? 'length' : origin === 'array' || origin === 'set' ? 'size' : 'value';
  return `${subject} must be ${strictOp} ${String(limit)}${unit}`;
}

/** zod does not report the input by default; the value is only used to tell "missing" apart. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

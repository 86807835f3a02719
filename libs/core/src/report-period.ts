import { ValidationError } from './errors';

/** A report's period: whole UTC days, both ends included. */
export interface ReportPeriod {
  /** YYYY-MM-DD */
  from: string;
  to: string;
  /** Every day of the period, in order (YYYY-MM-DD). */
  days: string[];
  /** ISO bounds of the period for a store query: start inclusive, end exclusive. */
  startsAt: string;
  endsBefore: string;
}

const DAY_MS = 86_400_000;
/** A report reads every record of its period: a longer one is refused rather than left to run long. */
export const MAX_REPORT_DAYS = 92;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dayOf(field: string, value: string): number {
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  if (!DATE.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw new ValidationError(field, `${field} must be a date as YYYY-MM-DD.`);
  return ms;
}

/**
 * The period of `from` and `to` (YYYY-MM-DD, both optional): `to` defaults to today (UTC), `from` to 29
 * days before `to` (30 days in all). 422 validation_failed naming the field when a date is malformed,
 * `from` is after `to`, or the period is longer than MAX_REPORT_DAYS.
 */
export function reportPeriod(query: { from?: unknown; to?: unknown }, now: Date): ReportPeriod {
  const text = (field: string, value: unknown): string | undefined => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new ValidationError(field, `${field} must be a date as YYYY-MM-DD.`);
    return value;
  };
  const toText = text('to', query.to);
  const fromText = text('from', query.from);
  const end = toText ? dayOf('to', toText) : Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const start = fromText ? dayOf('from', fromText) : end - 29 * DAY_MS;
  if (start > end) throw new ValidationError('from', 'from must not be after to.');
  const length = (end - start) / DAY_MS + 1;
  if (length > MAX_REPORT_DAYS) throw new ValidationError('from', `A report covers at most ${MAX_REPORT_DAYS} days.`);
  const days = Array.from({ length }, (_, index) => new Date(start + index * DAY_MS).toISOString().slice(0, 10));
  return { from: days[0]!, to: days.at(-1)!, days, startsAt: new Date(start).toISOString(), endsBefore: new Date(end + DAY_MS).toISOString() };
}

/** succeeded / (succeeded + failed) with 4 decimals; null when nothing finished. */
export function successRate(succeeded: number, failed: number): number | null {
  const finished = succeeded + failed;
  return finished === 0 ? null : Math.round((succeeded / finished) * 10_000) / 10_000;
}

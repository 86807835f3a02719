import type { Page, PageRequest, StoredDocument } from './store.port';
import { InvalidQueryError } from './where';

export interface ValidPageRequest {
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

export function validatePage(page: PageRequest): ValidPageRequest {
  const { limit, after, order = 'asc' } = page;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidQueryError(`page limit must be a positive integer, got ${String(limit)}`);
  if (order !== 'asc' && order !== 'desc') throw new InvalidQueryError(`page order must be asc or desc`);
  if (after !== undefined && typeof after !== 'string') throw new InvalidQueryError('page cursor must be a string');
  return { limit, after: after === '' ? undefined : after, order };
}

/** Builds a page from up to limit + 1 rows fetched in page order (the extra row only says there is more). */
export function toPage<T extends StoredDocument>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { items: rows, has_more: false };
  const items = rows.slice(0, limit);
  return { items, has_more: true, next_cursor: items[items.length - 1]!.id };
}

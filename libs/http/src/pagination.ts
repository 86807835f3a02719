import { z } from 'zod';
import type { Page } from '@vaultline/store';
import { parseInput } from './parse-input';

export interface PageQuery {
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

const pageQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, { message: 'limit must be an integer between 1 and 100.' })
    .transform(Number)
    .pipe(z.number().int().min(1, { message: 'limit must be between 1 and 100.' }).max(100, { message: 'limit must be between 1 and 100.' }))
    .optional(),
  starting_after: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, { message: 'starting_after must be the id of an item from a previous page.' })
    .optional(),
  order: z.enum(['asc', 'desc']).optional(),
});

/**
 * Reads `limit` (1–100, default 10), `starting_after` (cursor: last id of the previous page) and
 * `order` (default desc: newest first) from a query; other query parameters are left to the caller.
 */
export function parsePageQuery(query: unknown): PageQuery {
  const source = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const parsed = parseInput(pageQuerySchema, { limit: source.limit, starting_after: source.starting_after, order: source.order });
  const page: PageQuery = { limit: parsed.limit ?? 10, order: parsed.order ?? 'desc' };
  if (parsed.starting_after) page.after = parsed.starting_after;
  return page;
}

export interface ListResponse<R> {
  object: 'list';
  data: R[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The list envelope every list endpoint answers with. */
export function listResponse<T, R>(page: Page<T>, map: (item: T) => R): ListResponse<R> {
  return { object: 'list', data: page.items.map(map), has_more: page.has_more, next_cursor: page.next_cursor ?? null };
}

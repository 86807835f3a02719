import type { Request } from 'express';
import { AppError } from '@vaultline/core';
import { buildOpenApiDocument, queryDeclarationsOf, type DeclaredQuery, type QueryDeclarations } from '@vaultline/contracts';

/** A query parameter the route does not declare: refused, never ignored (ignored, it listed everything unfiltered). */
export class UnknownFilter extends AppError {
  constructor(name: string, declared: DeclaredQuery) {
    const takes = declared.names.length > 0 ? `it takes ${declared.names.join(', ')}` : 'it takes no query parameters';
    super('unknown_filter', 422, `${name} is not a filter of ${declared.operation}: ${takes}.`, { field: name });
  }
}

/** A query parameter's name as the problem quotes it: the client's own text, cut short. */
const MAX_NAME = 100;

/**
 * The check of every merchant read (GET, HEAD): each query parameter must be one its operation declares in
 * the merchant OpenAPI document, the one place that lists each route's filters (and page parameters), so
 * every list route of every service is covered by this one mechanism, and a filter a route documents is
 * one it takes. A path the document does not describe is left to its service.
 */
export function knownFilters(declarations: () => QueryDeclarations = merchantDeclarations): (req: Request) => void {
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    if (search === '') return;
    const declared = declarations()('GET', `${req.baseUrl}${req.path}`);
    if (!declared) return;
    for (const name of new URLSearchParams(search).keys()) {
      if (!declared.names.includes(name)) throw new UnknownFilter(name.slice(0, MAX_NAME), declared);
    }
  };
}

let merchant: QueryDeclarations | null = null;

/** The merchant document's declarations, built once on first use. */
function merchantDeclarations(): QueryDeclarations {
  merchant ??= queryDeclarationsOf(buildOpenApiDocument({ audience: 'merchant' }));
  return merchant;
}

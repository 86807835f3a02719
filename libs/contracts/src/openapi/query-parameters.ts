import type { JsonObject } from './openapi-fragment';

/** The query parameters one operation of the document declares (its filters and the page's). */
export interface DeclaredQuery {
  /** `GET /payments/{payment_id}/refunds`, as the document writes the path. */
  operation: string;
  names: readonly string[];
}

/** The operation a request falls under, with the query parameters it declares; null for a path the document does not describe. */
export type QueryDeclarations = (method: string, path: string) => DeclaredQuery | null;

interface Entry {
  method: string;
  pattern: RegExp;
  /** Segments written out (not a {parameter}): /tokens/imports wins over /tokens/{token_id}. */
  literals: number;
  declared: DeclaredQuery;
}

/**
 * The query parameters of every operation of an OpenAPI document, found by request method and path: the one
 * place that says which filters a route has, so the gateway can refuse any other (422 unknown_filter) on
 * every list route at once. A path parameter matches one segment; of two templates that match, the one
 * with more written-out segments wins.
 */
export function queryDeclarationsOf(document: JsonObject): QueryDeclarations {
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  const shared = ((document.components as JsonObject | undefined)?.parameters ?? {}) as Record<string, JsonObject>;
  const resolve = (parameter: JsonObject): JsonObject => (typeof parameter.$ref === 'string' ? (shared[parameter.$ref.split('/').pop()!] ?? {}) : parameter);
  const entries: Entry[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const segments = path.split('/').filter(Boolean);
    const pattern = new RegExp(`^/${segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/')}/?$`);
    const literals = segments.filter((segment) => !segment.startsWith('{')).length;
    const common = ((item.parameters ?? []) as JsonObject[]).map(resolve);
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters' || typeof operation !== 'object') continue;
      const parameters = [...common, ...((operation.parameters ?? []) as JsonObject[]).map(resolve)];
      const names = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => String(parameter.name));
      entries.push({ method: method.toUpperCase(), pattern, literals, declared: { operation: `${method.toUpperCase()} ${path}`, names } });
    }
  }
  entries.sort((a, b) => b.literals - a.literals);
  return (method, path) => entries.find((entry) => entry.method === method.toUpperCase() && entry.pattern.test(path))?.declared ?? null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import { buildOpenApiDocument } from '@vaultline/contracts';
import type { HttpAnswer, MerchantApi } from './merchant-api';

/**
 * The merchant routes of the OpenAPI document that name a resource in their path, for the suites that try
 * ids on every route (tenant isolation, mode isolation): a route added to the document is covered
 * without a new row.
 */
export interface DocumentRoute {
  method: string;
  template: string;
  /** The request example its operation documents, if any. */
  example?: unknown;
}

interface DocumentOperation {
  security?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }> };
}

/** Every merchant route (X-API-Key) with an id in its path, with the request example its operation documents. */
export function idRoutesOfDocument(): DocumentRoute[] {
  const paths = buildOpenApiDocument().paths as Record<string, Record<string, DocumentOperation>>;
  return Object.entries(paths).flatMap(([template, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      template.includes('{') && (operation.security ?? []).some((scheme) => 'ApiKey' in scheme)
        ? [{ method: method.toUpperCase(), template, example: requestExampleOf(operation) }]
        : [],
    ),
  );
}

function requestExampleOf(operation: DocumentOperation): unknown {
  const json = operation.requestBody?.content?.['application/json'];
  if (!json) return undefined;
  return json.example ?? Object.values(json.examples ?? {})[0]?.value;
}

/** The route with every id slot filled with `id`. */
export const pathWithId = (route: DocumentRoute, id: string): string => route.template.replace(/\{[^}]+\}/g, encodeURIComponent(id));

/**
 * The request options of a route tried with a foreign id: a valid body (the operation's documented example),
 * so the answer is about the id, since a body refused first (422) would say nothing about it.
 */
export function documentedRequestOf(route: DocumentRoute): { json?: unknown } {
  if (route.method === 'GET' || route.method === 'DELETE') return {};
  return { json: route.example ?? (route.method === 'PATCH' ? { description: 'taken over' } : {}) };
}

/** One (route, id) pair tried: what came back. */
export interface ProbeAnswer {
  resource: string;
  route: string;
  status: number;
  /** application/problem+json, with this code. */
  problem: boolean;
  code: string | null;
}

export async function probe(
  api: MerchantApi,
  resource: string,
  method: string,
  path: string,
  options: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<ProbeAnswer> {
  const answer = await api.call(method, path, options);
  return { resource, route: `${method} ${path}`, status: answer.status, ...problemOf(answer) };
}

function problemOf(answer: HttpAnswer): { problem: boolean; code: string | null } {
  const problem = answer.headers.get('content-type')?.includes('application/problem+json') ?? false;
  return { problem, code: problem ? (answer.json<{ code?: string }>().code ?? null) : null };
}

import { buildOpenApiDocument, validateAgainstOpenApi } from '@vaultline/contracts';

/**
 * What the SDK contract tests know of the merchant OpenAPI document: its routes (the operator API,
 * X-Admin-Key, is not the SDKs'), the route a request was for, and whether an answer is the documented one.
 */
type Operation = { security?: Array<Record<string, unknown>> };
const document = buildOpenApiDocument();

export interface MerchantRoute {
  method: string;
  template: string;
  pattern: RegExp;
}

/** Every merchant route, with a matcher of its concrete paths. */
export const merchantRoutes: MerchantRoute[] = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([, operation]) => !(operation.security ?? []).some((scheme) => 'AdminKey' in scheme))
    .map(([method]) => ({ method: method.toUpperCase(), template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) })),
);

type DocumentedResponse = { $ref?: string; content?: Record<string, unknown> };

/** The response the document gives for (method, template, status), or its default. */
function documentedResponse(method: string, template: string, status: number): DocumentedResponse | undefined {
  const operation = (document.paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>)[template]?.[method.toLowerCase()];
  const response = operation?.responses[String(status)] ?? operation?.responses.default;
  const name = response?.$ref?.replace('#/components/responses/', '');
  return name ? (document.components as { responses: Record<string, DocumentedResponse> }).responses[name] : response;
}

/**
 * A JSON answer must match its documented schema (validateAgainstOpenApi); an answer of another type
 * (Adyen's `[accepted]`) must be of a type the response names; a response documented without content
 * (forward's: the destination's own answer) may carry anything.
 */
export function checkAnswer(method: string, template: string, response: Response, body: unknown): { valid: boolean; errors: string[] } {
  const documentedTypes = Object.keys(documentedResponse(method, template, response.status)?.content ?? {});
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (documentedTypes.length === 0 && template === '/forward') return { valid: true, errors: [] };
  if (type && !type.endsWith('json'))
    return documentedTypes.includes(type)
      ? { valid: true, errors: [] }
      : { valid: false, errors: [`${type} is not documented (${documentedTypes.join(', ')})`] };
  return validateAgainstOpenApi(method, template, response.status, body);
}

/** The template a request was for: the most specific one (fewest parameters) that matches its path. */
export function templateOf(method: string, path: string): string | undefined {
  const candidates = merchantRoutes.filter((route) => route.method === method && route.pattern.test(path));
  return candidates.sort((a, b) => a.template.split('{').length - b.template.split('{').length)[0]?.template;
}

export interface RecordedCall {
  method: string;
  template: string;
  status: number;
  problems: string[];
}

/** A fetch that records, for every request, its route, status and whether the answer is the documented one. */
export function recordingFetch(calls: RecordedCall[]): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await fetch(request);
    const path = new URL(request.url).pathname;
    const template = templateOf(request.method, path);
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const outcome = template ? checkAnswer(request.method, template, response, body) : { valid: false, errors: ['not in the document'] };
    calls.push({
      method: request.method,
      template: template ?? `(not in the document) ${path}`,
      status: response.status,
      problems: outcome.valid ? [] : outcome.errors,
    });
    return response;
  };
}

/** The routes called with a 2xx answer, and those of the document that were not. */
export function coverageOf(calls: RecordedCall[]): { covered: number; missing: string[] } {
  const covered = new Set(calls.filter((call) => call.status >= 200 && call.status < 300).map((call) => `${call.method} ${call.template}`));
  const missing = merchantRoutes.map((route) => `${route.method} ${route.template}`).filter((route) => !covered.has(route));
  return { covered: merchantRoutes.length - missing.length, missing };
}

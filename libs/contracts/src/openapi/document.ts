import type { JsonObject, OpenApiFragment } from './openapi-fragment';
import { fragments as registeredFragments } from './fragments';
import { declareIdempotencyKey } from './idempotency';
import { referencedComponents } from './reachable-components';
import { addCodeSamples } from './code-samples';

const COMPONENT_KINDS = ['schemas', 'parameters', 'responses', 'securitySchemes'] as const;
type Components = Record<(typeof COMPONENT_KINDS)[number], Record<string, JsonObject>>;

/** The two documents: the merchant API (/openapi.json) and the operators' admin API (/admin/openapi.json). */
export type OpenApiAudience = 'merchant' | 'admin';

export interface BuildOpenApiOptions {
  serverUrl?: string;
  fragments?: OpenApiFragment[];
  /** Which document: 'merchant' (default) holds every path outside /admin, 'admin' the paths under it. */
  audience?: OpenApiAudience;
  /**
   * Request samples (curl and Node.js through the SDK) as `x-codeSamples` on every operation: the served
   * reference shows them; the SDK's generated files leave them out (they type nothing).
   */
  codeSamples?: boolean;
}

const INFO: Record<OpenApiAudience, JsonObject> = {
  merchant: {
    title: 'Vaultline merchant API',
    description:
      'Card-data vault, forwarding proxy and payment orchestration. Every request carries `X-API-Key`; bodies are JSON; ' +
      'errors are `application/problem+json` with a stable `code` whose `type` links to its entry in the [error reference](/docs/errors); ' +
      'every response carries `X-Request-Id`. A read (GET) with a query parameter its operation does not list is refused, 422 `unknown_filter` ' +
      'naming it: a filter is never ignored.\n\n' +
      'New here? The [guides](/docs/guides) have a quick start, the test cards of every processor, the payment lifecycle, webhooks, ' +
      'idempotency and the test clock.',
  },
  admin: {
    title: 'Vaultline admin API',
    description:
      "The operators' API: merchants, their API keys, operators, the admin audit and forwarding destinations. Every request carries " +
      '`X-Admin-Key` (`ADMIN_API_KEY` is the operator `bootstrap`); every request is audited; without `ADMIN_API_KEY` the admin API answers 404. ' +
      'The merchant API is in the [API reference](/docs).',
  },
};

/** Without a server URL (the document as published, not served): the deployment's PUBLIC_BASE_URL, as a variable. */
const ANY_DEPLOYMENT: JsonObject = {
  url: '{public_base_url}',
  description: 'The gateway of your deployment (its PUBLIC_BASE_URL); the gateway serves this document with its own address here.',
  variables: { public_base_url: { default: 'https://vaultline.internal', description: 'PUBLIC_BASE_URL' } },
};

/** The order of the reference's sections: how a newcomer meets the API. Tags not listed follow, in fragment order. */
const TAG_ORDER = ['Payments', 'Checkout', 'Tokens', 'Webhooks', 'Events', 'Flows', 'Processor accounts', 'Forwarding', 'Imports', 'Processor notifications'];
const tagRank = (name: string): number => (TAG_ORDER.includes(name) ? TAG_ORDER.indexOf(name) : TAG_ORDER.length);

const isAdminPath = (path: string): boolean => path === '/admin' || path.startsWith('/admin/');

/**
 * The OpenAPI 3.1 document of one audience, merged from the registered fragments. Only the components
 * and tags the audience's operations use are kept, so each document stands alone.
 */
export function buildOpenApiDocument(options: BuildOpenApiOptions = {}): JsonObject {
  const audience = options.audience ?? 'merchant';
  const { paths: allPaths, components: allComponents, tags: allTags } = mergeFragments(options.fragments ?? registeredFragments);
  const paths = Object.fromEntries(Object.entries(allPaths).filter(([path]) => isAdminPath(path) === (audience === 'admin')));
  const security = audience === 'admin' ? [{ AdminKey: [] }] : [{ ApiKey: [] }];
  const used = referencedComponents({ paths, security }, allComponents);
  const components = Object.fromEntries(
    COMPONENT_KINDS.map((kind) => [kind, Object.fromEntries(Object.entries(allComponents[kind]).filter(([name]) => used.has(`${kind}/${name}`)))]),
  );
  const usedTags = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => (operation.tags as string[] | undefined) ?? [])));
  if (options.codeSamples) addCodeSamples(paths, allComponents, { serverUrl: options.serverUrl ?? String(ANY_DEPLOYMENT.url), audience });

  return {
    openapi: '3.1.0',
    info: { ...INFO[audience], version: '1.0.0', license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [options.serverUrl ? { url: options.serverUrl } : ANY_DEPLOYMENT],
    security,
    tags: allTags.filter((tag) => usedTags.has(tag.name)).sort((a, b) => tagRank(a.name) - tagRank(b.name)),
    paths,
    components,
  };
}

function mergeFragments(fragments: OpenApiFragment[]): {
  paths: Record<string, Record<string, JsonObject>>;
  components: Components;
  tags: { name: string; description?: string }[];
} {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const components: Components = { schemas: {}, parameters: {}, responses: {}, securitySchemes: {} };
  const tags: { name: string; description?: string }[] = [];
  for (const fragment of fragments) {
    for (const [path, item] of Object.entries(fragment.paths ?? {})) {
      const target = (paths[path] ??= {});
      for (const [method, operation] of Object.entries(item)) {
        if (target[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is defined by two fragments`);
        target[method] = operation;
      }
    }
    for (const kind of COMPONENT_KINDS) {
      for (const [name, value] of Object.entries(fragment.components?.[kind] ?? {})) {
        if (components[kind][name]) throw new Error(`OpenAPI: components.${kind}.${name} is defined by two fragments`);
        components[kind][name] = value;
      }
    }
    for (const tag of fragment.tags ?? []) if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
  }
  declareIdempotencyKey(paths, components.responses);
  declareUnsupportedMediaType(paths);
  declareUnknownFilter(paths);
  return { paths, components, tags };
}

/** Every merchant read answers 422 unknown_filter to a query parameter it does not list (the gateway checks it against this document). */
function declareUnknownFilter(paths: Record<string, Record<string, JsonObject>>): void {
  for (const [path, item] of Object.entries(paths)) {
    const operation = item.get;
    const responses = operation?.responses as Record<string, JsonObject> | undefined;
    if (isAdminPath(path) || !operation || !responses || responses['422']) continue;
    item.get = { ...operation, responses: { ...responses, '422': { $ref: '#/components/responses/ValidationFailed' } } };
  }
}

/** Every operation that takes a body answers 415 to a body of another type (the gateway checks it on every route). */
function declareUnsupportedMediaType(paths: Record<string, Record<string, JsonObject>>): void {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = operation.responses as Record<string, JsonObject> | undefined;
      if (!operation.requestBody || !responses || responses['415']) continue;
      item[method] = { ...operation, responses: { ...responses, '415': { $ref: '#/components/responses/UnsupportedMediaType' } } };
    }
  }
}

import type { JsonObject, OpenApiFragment } from './openapi-fragment';
import { fragments as registeredFragments } from './fragments';
import { declareIdempotencyKey } from './idempotency';

const COMPONENT_KINDS = ['schemas', 'parameters', 'responses', 'securitySchemes'] as const;

/** The OpenAPI 3.1 document of the merchant API, merged from the registered fragments. */
export function buildOpenApiDocument(options: { serverUrl?: string; fragments?: OpenApiFragment[] } = {}): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const components: Record<(typeof COMPONENT_KINDS)[number], Record<string, JsonObject>> = { schemas: {}, parameters: {}, responses: {}, securitySchemes: {} };
  const tags: { name: string; description?: string }[] = [];

  for (const fragment of options.fragments ?? registeredFragments) {
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

  return {
    openapi: '3.1.0',
    info: {
      title: 'Vaultline merchant API',
      version: '1.0.0',
      description:
        'Card-data vault, forwarding proxy and payment orchestration. Every request carries X-API-Key; ' +
        'errors are application/problem+json with a stable `code`; every response carries X-Request-Id.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: options.serverUrl ?? 'http://localhost:8080' }],
    security: [{ ApiKey: [] }],
    tags,
    paths,
    components,
  };
}

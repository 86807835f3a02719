export { buildOpenApiDocument } from './document';
export { validateAgainstOpenApi } from './validate-response';
export type { OpenApiFragment, JsonObject } from './openapi-fragment';

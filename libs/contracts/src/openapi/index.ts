export { buildOpenApiDocument } from './document';
export { validateAgainstOpenApi, validateRequestAgainstOpenApi } from './validate-response';
export type { OpenApiFragment, JsonObject } from './openapi-fragment';

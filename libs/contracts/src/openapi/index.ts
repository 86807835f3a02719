export { buildOpenApiDocument, type OpenApiAudience, type BuildOpenApiOptions } from './document';
export { codeSamplesOf, type CodeSample } from './code-samples';
export { validateAgainstOpenApi, validateRequestAgainstOpenApi } from './validate-response';
export { queryDeclarationsOf, type DeclaredQuery, type QueryDeclarations } from './query-parameters';
export { examplesOf, invalidExamples, type DocumentExample } from './document-examples';
export type { OpenApiFragment, JsonObject } from './openapi-fragment';

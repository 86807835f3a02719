import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonObject } from './openapi-fragment';
import { buildOpenApiDocument, type OpenApiAudience } from './document';

const DOCUMENT_ID = 'urn:vaultline:openapi';

interface Validator {
  document: JsonObject;
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction | null>;
}

const cached = new Map<OpenApiAudience, Validator>();

/** The validator of the document that holds the path: the admin document for /admin/…, else the merchant one. */
function validator(pathTemplate: string): Validator {
  const audience: OpenApiAudience = pathTemplate.startsWith('/admin/') ? 'admin' : 'merchant';
  const known = cached.get(audience);
  if (known) return known;
  const document = buildOpenApiDocument({ audience });
  const made = { document, ajv: schemaValidatorOf(document), compiled: new Map() };
  cached.set(audience, made);
  return made;
}

/**
 * An ajv (JSON Schema 2020-12, the document's dialect) that knows the document's components under one id,
 * so that a schema passed through anchorRefs resolves its `#/components/...` refs inside the document.
 */
export function schemaValidatorOf(document: JsonObject): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components }, DOCUMENT_ID);
  return ajv;
}

/** Rewrites local refs to point into the document registered with ajv by schemaValidatorOf. */
export function anchorRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anchorRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' && item.startsWith('#/') ? `${DOCUMENT_ID}${item}` : anchorRefs(item);
  }
  return out;
}

function resolveResponse(document: JsonObject, response: JsonObject | undefined): JsonObject | undefined {
  const ref = response?.$ref;
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  return ((document.components as JsonObject).responses as Record<string, JsonObject>)[name];
}

function outcomeOf(validate: ValidateFunction, body: unknown): { valid: boolean; errors: string[] } {
  if (validate(body)) return { valid: true, errors: [] };
  return { valid: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`) };
}

/**
 * Checks a real response against the documented one for (method, path template, status),
 * falling back to the operation's `default` response. A status that is not documented is invalid.
 */
export function validateAgainstOpenApi(method: string, pathTemplate: string, status: number, body: unknown): { valid: boolean; errors: string[] } {
  const { document, ajv, compiled } = validator(pathTemplate);
  const key = `${method.toLowerCase()} ${pathTemplate} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const paths = document.paths as Record<string, Record<string, JsonObject>>;
    const operation = paths[pathTemplate]?.[method.toLowerCase()];
    if (!operation) return { valid: false, errors: [`${method.toUpperCase()} ${pathTemplate} is not documented`] };
    const responses = operation.responses as Record<string, JsonObject>;
    const response = resolveResponse(document, responses[String(status)] ?? responses.default);
    if (!response) return { valid: false, errors: [`${method.toUpperCase()} ${pathTemplate} does not document status ${status}`] };
    const content = response.content as Record<string, { schema?: JsonObject }> | undefined;
    const schema = content?.['application/json']?.schema ?? content?.['application/problem+json']?.schema;
    validate = schema ? ajv.compile(anchorRefs(schema) as JsonObject) : null;
    compiled.set(key, validate);
  }
  if (validate === null) {
    const empty = body === undefined || body === null || body === '';
    return empty ? { valid: true, errors: [] } : { valid: false, errors: ['a body was sent where none is documented'] };
  }
  return outcomeOf(validate, body);
}

/** Checks a request body against the documented JSON request body of (method, path template). */
export function validateRequestAgainstOpenApi(method: string, pathTemplate: string, body: unknown): { valid: boolean; errors: string[] } {
  const { document, ajv, compiled } = validator(pathTemplate);
  const key = `${method.toLowerCase()} ${pathTemplate} request`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const operation = (document.paths as Record<string, Record<string, JsonObject>>)[pathTemplate]?.[method.toLowerCase()];
    if (!operation) return { valid: false, errors: [`${method.toUpperCase()} ${pathTemplate} is not documented`] };
    const content = (operation.requestBody as JsonObject | undefined)?.content as Record<string, { schema?: JsonObject }> | undefined;
    const schema = content?.['application/json']?.schema;
    validate = schema ? ajv.compile(anchorRefs(schema) as JsonObject) : null;
    compiled.set(key, validate);
  }
  if (validate === null) return { valid: false, errors: [`${method.toUpperCase()} ${pathTemplate} documents no JSON request body`] };
  return outcomeOf(validate, body);
}

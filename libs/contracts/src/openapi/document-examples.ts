import type { JsonObject } from './openapi-fragment';
import { anchorRefs, schemaValidatorOf } from './validate-response';

/** One example of an OpenAPI document and the schema it illustrates. */
export interface DocumentExample {
  /** JSON pointer of the example in the document. */
  pointer: string;
  schema: JsonObject | boolean;
  value: unknown;
}

/** Keys whose value maps names to schemas (not a schema itself). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_KEYWORDS = ['type', '$ref', 'allOf', 'oneOf', 'anyOf', 'const', 'enum', 'properties', 'items', 'format', 'pattern'];

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every example the document gives: of media types and parameters (`example`, `examples.*.value`, beside
 * their `schema`) and of schemas (`examples: [...]`, `example`). Found by walking the whole document, so
 * operations and components added later are covered without a list to keep.
 */
export function examplesOf(document: JsonObject): DocumentExample[] {
  const found: DocumentExample[] = [];
  const walk = (node: unknown, pointer: string, inSchema: boolean, parentKey: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`, inSchema, String(i)));
    if (node === null || typeof node !== 'object') return;
    const object = node as JsonObject;
    const isSchemaMap = SCHEMA_MAPS.has(parentKey);
    if (!inSchema && 'schema' in object && (typeof object.schema === 'object' || typeof object.schema === 'boolean')) {
      const schema = object.schema as JsonObject;
      if ('example' in object) found.push({ pointer: `${pointer}/example`, schema, value: object.example });
      for (const [name, named] of Object.entries((object.examples ?? {}) as Record<string, JsonObject>)) {
        if ('value' in named) found.push({ pointer: `${pointer}/examples/${escapePointer(name)}/value`, schema, value: named.value });
      }
    }
    if (inSchema && !isSchemaMap && SCHEMA_KEYWORDS.some((keyword) => keyword in object)) {
      const { examples, example, ...schema } = object;
      if (Array.isArray(examples)) examples.forEach((value, i) => found.push({ pointer: `${pointer}/examples/${i}`, schema, value }));
      if (example !== undefined) found.push({ pointer: `${pointer}/example`, schema, value: example });
    }
    for (const [key, child] of Object.entries(object)) {
      if (!isSchemaMap && (key === 'example' || key === 'examples')) continue;
      const entersSchema = inSchema || key === 'schema' || (key === 'schemas' && parentKey === 'components');
      walk(child, `${pointer}/${escapePointer(key)}`, entersSchema, key);
    }
  };
  walk(document, '#', false, '');
  return found;
}

/** The examples of the document that do not validate against their schema (JSON Schema 2020-12), with ajv's reasons. */
export function invalidExamples(document: JsonObject): { pointer: string; errors: string[] }[] {
  const ajv = schemaValidatorOf(document);
  return examplesOf(document).flatMap(({ pointer, schema, value }) => {
    const validate = ajv.compile(typeof schema === 'boolean' ? schema : (anchorRefs(schema) as JsonObject));
    if (validate(value)) return [];
    return [{ pointer, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '(value)'} ${e.message ?? 'is invalid'}`) }];
  });
}

/**
 * The JSON request bodies and JSON success responses of the document's operations that show no example
 * (`method path request` or `method path status`): the reference shows each one's example beside its schema.
 */
export function operationsWithoutExamples(document: JsonObject): string[] {
  const missing: string[] = [];
  const shows = (media: JsonObject | undefined) => media === undefined || media.example !== undefined || media.examples !== undefined;
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, JsonObject>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const request = ((operation.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined)?.['application/json'];
      if (!shows(request)) missing.push(`${method} ${path} request`);
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        const media = (response.content as Record<string, JsonObject> | undefined)?.['application/json'];
        if (status.startsWith('2') && !shows(media)) missing.push(`${method} ${path} ${status}`);
      }
    }
  }
  return missing;
}

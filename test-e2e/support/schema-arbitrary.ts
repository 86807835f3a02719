import fc from 'fast-check';

/** A JSON-schema node as the OpenAPI document writes them (the subset buildOpenApiDocument uses). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export interface OpenApiLike {
  components?: { schemas?: Record<string, JsonSchema> };
}

/**
 * An arbitrary of values that the schema describes — what a well-behaved client would send — for the
 * keywords the document uses: type (one or several), properties/required/additionalProperties,
 * items/minItems/maxItems, minProperties, enum, const, oneOf/anyOf, string lengths, pattern and format,
 * number bounds, and $ref to components. Optional properties are sometimes left out. Depth is bounded.
 */
export function arbitraryOf(schema: JsonSchema, document: OpenApiLike, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolveRef(schema.$ref, document), document, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, document, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : ['string'];
  return fc.oneof(...types.map((type) => arbitraryOfType(type, schema, document, depth)));
}

function arbitraryOfType(type: string, schema: JsonSchema, document: OpenApiLike, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.ceil(lowerBound(schema) ?? -1_000_000), max: Math.floor(schema.maximum ?? 1_000_000) });
    case 'number':
      return fc.double({
        min: lowerBound(schema) ?? -1_000_000,
        max: schema.maximum ?? 1_000_000,
        noNaN: true,
        noDefaultInfinity: true,
        minExcluded: schema.exclusiveMinimum !== undefined,
      });
    case 'string':
      return stringOf(schema);
    case 'array': {
      const items = schema.items ? arbitraryOf(schema.items, document, depth + 1) : fc.string();
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, depth > 2 ? 1 : 4) });
    }
    case 'object':
      return objectOf(schema, document, depth);
    default:
      throw new Error(`schemaArbitrary: type ${type} is not supported`);
  }
}

function lowerBound(schema: JsonSchema): number | undefined {
  return schema.exclusiveMinimum ?? schema.minimum;
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'uri':
    case 'url':
      return fc.webUrl({ validSchemes: ['https'] });
    case 'email':
      return fc.emailAddress();
    default:
      return fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) });
  }
}

function objectOf(schema: JsonSchema, document: OpenApiLike, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  // A schema may require a key it describes elsewhere (an allOf or oneOf branch): only the keys described here are generated.
  const required = new Set((schema.required ?? []).filter((name) => name in properties));
  const entries = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, document, depth + 1)]));
  const optional = Object.keys(properties).filter((name) => !required.has(name));
  const record = fc.record(entries, { requiredKeys: [...required] });
  const minProperties = schema.minProperties ?? 0;
  if (minProperties === 0 || optional.length === 0) return record;
  return record.filter((value) => Object.keys(value as object).length >= minProperties);
}

export function resolveRef(ref: string, document: OpenApiLike): JsonSchema {
  const name = ref.replace('#/components/schemas/', '');
  const schema = document.components?.schemas?.[name];
  if (!schema) throw new Error(`schemaArbitrary: ${ref} is not in the document`);
  return schema;
}

/** The schema's own properties and required list, $ref resolved (for the mutations: missing, extra, wrong type). */
export function objectShape(schema: JsonSchema, document: OpenApiLike): { properties: string[]; required: string[] } {
  const resolved = schema.$ref ? resolveRef(schema.$ref, document) : schema;
  return { properties: Object.keys(resolved.properties ?? {}), required: resolved.required ?? [] };
}

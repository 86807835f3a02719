import type { JsonObject } from '@vaultline/contracts';
import { headerArgument, operationName, pascalCase } from './naming';

/**
 * The merchant OpenAPI document read into what an SDK needs: named object types (components and the
 * inline objects of bodies and answers, hoisted with a name), and operations with their parameters, body,
 * answer and pagination. The emitters (python.ts, go.ts) only print this model.
 */
export type TypeRef =
  | { kind: 'string' | 'integer' | 'number' | 'boolean' | 'unknown' | 'null' }
  | { kind: 'literal'; values: Array<string | number | boolean> }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'map'; values: TypeRef }
  | { kind: 'object'; name: string }
  /** oneOf or several JSON types; `name` is what a language without unions calls the merged shape. */
  | { kind: 'union'; variants: TypeRef[]; name: string }
  | { kind: 'nullable'; inner: TypeRef };

export interface Property {
  name: string;
  type: TypeRef;
  required: boolean;
  description?: string;
}

export interface ObjectType {
  name: string;
  description?: string;
  properties: Property[];
}

export interface Parameter {
  /** As on the wire: `limit`, `X-Test-Now`. */
  name: string;
  /** As an argument: `limit`, `test_now`. */
  argument: string;
  type: TypeRef;
  required: boolean;
  description?: string;
}

export type Answer =
  | { kind: 'json'; type: TypeRef }
  /** An image or other bytes. */
  | { kind: 'binary' }
  /** Whatever the other side answers (a forwarded destination's answer, a processor acknowledgment). */
  | { kind: 'raw' }
  | { kind: 'none' };

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  resource: string;
  name: string;
  summary: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** Declared headers other than Idempotency-Key (every POST gets that one from the SDK). */
  headerParams: Parameter[];
  body?: { type: TypeRef; required: boolean; contentType: string };
  answer: Answer;
  /** A list answered page by page: starting_after is a parameter and the answer is { data, has_more, next_cursor }. */
  page?: { item: TypeRef };
}

export interface ApiModel {
  version: string;
  title: string;
  objects: ObjectType[];
  /** Component schemas that are unions (AnyPayment): a name for a TypeRef. */
  aliases: Array<{ name: string; type: TypeRef; description?: string }>;
  operations: Operation[];
}

type Schema = JsonObject & Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function buildModel(document: JsonObject): ApiModel {
  const components = (document.components ?? {}) as Record<string, Record<string, Schema>>;
  const schemas = components.schemas ?? {};
  const objects = new Map<string, ObjectType>();
  const aliases: ApiModel['aliases'] = [];
  const componentTypes = new Map<string, TypeRef>();

  const resolve = <T>(value: T & { $ref?: string }): T => {
    if (!value.$ref) return value;
    const [, , kind, name] = value.$ref.split('/');
    return components[kind!]![name!] as T;
  };
  const refName = (ref: string) => ref.split('/').pop()!;

  /** A unique name for an inline object: its context, then a number if the context names two. */
  const claim = (name: string): string => {
    let candidate = name;
    for (let n = 2; objects.has(candidate) || schemas[candidate] !== undefined; n += 1) candidate = `${name}${n}`;
    return candidate;
  };

  /** allOf flattened: the properties of each part in order (a later part refines an earlier one), required unioned. */
  function flatten(schema: Schema): { properties: Record<string, Schema>; required: Set<string>; refs: string[]; description?: string } {
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    const refs: string[] = [];
    const visit = (part: Schema) => {
      if (part.$ref) {
        refs.push(refName(part.$ref as string));
        visit(resolve(part));
        return;
      }
      for (const sub of (part.allOf as Schema[] | undefined) ?? []) visit(sub);
      for (const [name, value] of Object.entries((part.properties as Record<string, Schema | boolean> | undefined) ?? {})) {
        if (typeof value === 'boolean') continue; // `false`: a conditional rule says the field is absent; types keep it
        properties[name] = properties[name] && isRefinement(value) ? properties[name]! : value;
      }
      for (const name of (part.required as string[] | undefined) ?? []) required.add(name);
    };
    visit(schema);
    return { properties, required, refs, description: schema.description as string | undefined };
  }

  /** A property schema that only narrows what an earlier part said (allOf of the same ref, required): keep the earlier type. */
  const isRefinement = (value: Schema): boolean =>
    !value.type && !value.$ref && !value.enum && !('const' in value) && !value.oneOf && !value.anyOf && !value.properties && !value.items;

  function objectType(name: string, schema: Schema): TypeRef {
    const { properties, required, description } = flatten(schema);
    const object: ObjectType = { name, description, properties: [] };
    objects.set(name, object);
    object.properties = Object.entries(properties).map(([property, value]) => ({
      name: property,
      type: typeOf(value, `${name}${pascalCase(property)}`),
      required: required.has(property),
      description: value.description as string | undefined,
    }));
    return { kind: 'object', name };
  }

  const isObjectSchema = (schema: Schema): boolean => {
    const types = [schema.type].flat();
    return (
      (types.includes('object') || (!schema.type && (schema.properties !== undefined || schema.allOf !== undefined))) &&
      (schema.properties !== undefined || schema.allOf !== undefined)
    );
  };

  /** An inline schema met again (a property of PaymentFields merged into Payment and its refinements): the type made the first time. */
  const seen = new Map<Schema, TypeRef>();

  function typeOf(raw: Schema | boolean | undefined, context: string): TypeRef {
    if (raw === undefined || typeof raw === 'boolean') return { kind: 'unknown' };
    const known = seen.get(raw);
    if (known) return known;
    const type = typeOfSchema(raw, context);
    seen.set(raw, type);
    return type;
  }

  function typeOfSchema(schema: Schema, context: string): TypeRef {
    if (schema.$ref) {
      const name = refName(schema.$ref as string);
      return componentType(name);
    }
    if (schema.allOf) {
      const parts = schema.allOf as Schema[];
      const own = Object.keys(schema).filter((key) => !['allOf', 'description', 'required', 'examples', 'example', 'title'].includes(key));
      // `allOf: [{$ref}]` with only required fields added or a description: that type itself.
      if (parts.length === 1 && parts[0]!.$ref && own.length === 0) return typeOf(parts[0], context);
      return objectType(claim(context), schema);
    }
    const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (variants)
      return union(
        variants.map((variant, n) => typeOf(variant, `${context}${n + 1}`)),
        context,
      );
    if (schema.enum)
      return nullableIf(
        schema,
        { kind: 'literal', values: (schema.enum as Array<string | number | boolean | null>).filter((v): v is string | number | boolean => v !== null) },
        (schema.enum as unknown[]).includes(null),
      );
    if ('const' in schema) return { kind: 'literal', values: [schema.const as string] };
    const types = [schema.type ?? (schema.properties ? 'object' : undefined)].flat().filter((t): t is string => typeof t === 'string');
    const nullable = types.includes('null');
    const concrete = types.filter((t) => t !== 'null');
    if (concrete.length === 0) return nullable ? { kind: 'null' } : { kind: 'unknown' };
    if (concrete.length > 1)
      return nullableIf(
        schema,
        union(
          concrete.map((t) => typeOf({ ...schema, type: t }, context)),
          context,
        ),
        nullable,
      );
    const [type] = concrete;
    let base: TypeRef;
    if (type === 'object') {
      if (isObjectSchema(schema)) base = objectType(claim(context), schema);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        base = { kind: 'map', values: typeOf(schema.additionalProperties as Schema, `${context}Value`) };
      else base = { kind: 'map', values: { kind: 'unknown' } };
    } else if (type === 'array') base = { kind: 'array', items: typeOf(schema.items as Schema, `${context}Item`) };
    else if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') base = { kind: type };
    else base = { kind: 'unknown' };
    return nullableIf(schema, base, nullable);
  }

  const nullableIf = (_schema: Schema, type: TypeRef, nullable: boolean): TypeRef => (nullable ? { kind: 'nullable', inner: type } : type);

  /** oneOf: a null variant makes the rest nullable; one variant left is itself. */
  function union(variants: TypeRef[], name: string): TypeRef {
    const nullable = variants.some((variant) => variant.kind === 'null');
    const rest = variants.filter((variant) => variant.kind !== 'null');
    const inner: TypeRef = rest.length === 1 ? rest[0]! : rest.length === 0 ? { kind: 'null' } : { kind: 'union', variants: rest, name };
    return nullable && inner.kind !== 'null' ? { kind: 'nullable', inner } : inner;
  }

  function componentType(name: string): TypeRef {
    const known = componentTypes.get(name);
    if (known) return known;
    const schema = schemas[name]!;
    if (isObjectSchema(schema) && !schema.oneOf && !schema.anyOf) {
      const ref: TypeRef = { kind: 'object', name };
      componentTypes.set(name, ref); // before its properties: a schema may refer to itself
      objectType(name, schema);
      return ref;
    }
    const type = typeOf(schema, name);
    if (type.kind === 'union' || (type.kind === 'nullable' && type.inner.kind === 'union')) {
      aliases.push({ name, type, description: schema.description as string | undefined });
      const alias: TypeRef = type;
      componentTypes.set(name, alias);
      return alias;
    }
    componentTypes.set(name, type);
    return type;
  }

  for (const name of Object.keys(schemas)) componentType(name);

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const security = operation.security as Array<Record<string, unknown>> | undefined;
      if ((security ?? []).some((scheme) => 'AdminKey' in scheme)) continue;
      const id = operation.operationId as string;
      const [resource, name] = operationName(id, path);
      const parameters = [...((item.parameters as Schema[] | undefined) ?? []), ...((operation.parameters as Schema[] | undefined) ?? [])].map(
        (p) => resolve(p) as Schema,
      );
      const parameter = (p: Schema): Parameter => ({
        name: p.name as string,
        argument: p.in === 'header' ? headerArgument(p.name as string) : (p.name as string),
        type: typeOf(p.schema as Schema, `${pascalCase(id)}${pascalCase(p.name as string)}`),
        required: p.required === true,
        description: p.description as string | undefined,
      });
      const body = requestBody(operation.requestBody as Schema | undefined, pascalCase(id));
      const answer = answerOf(operation.responses as Record<string, Schema>, pascalCase(id));
      const queryParams = parameters.filter((p) => p.in === 'query').map(parameter);
      operations.push({
        id,
        method: method.toUpperCase() as Operation['method'],
        path,
        resource,
        name,
        summary: (operation.summary as string | undefined) ?? id,
        pathParams: parameters.filter((p) => p.in === 'path').map(parameter),
        queryParams,
        headerParams: parameters.filter((p) => p.in === 'header' && (p.name as string).toLowerCase() !== 'idempotency-key').map(parameter),
        ...(body ? { body } : {}),
        answer,
        ...pageOf(answer, queryParams),
      });
    }
  }

  function requestBody(raw: Schema | undefined, context: string): Operation['body'] {
    if (!raw) return undefined;
    const body = resolve(raw);
    const content = body.content as Record<string, { schema: Schema }>;
    const contentType = content['application/json'] ? 'application/json' : Object.keys(content)[0]!;
    return { type: typeOf(content[contentType]!.schema, `${context}Request`), required: body.required === true, contentType };
  }

  function answerOf(responses: Record<string, Schema>, context: string): Answer {
    const success = Object.entries(responses).filter(([status]) => /^2\d\d$/.test(status));
    if (success.length === 0) return { kind: 'raw' };
    const withContent = success.map(([, response]) => resolve(response)).find((response) => response.content);
    if (!withContent) return { kind: 'none' };
    const content = withContent.content as Record<string, { schema?: Schema }>;
    const types = Object.keys(content);
    if (types.length === 1 && types[0]!.endsWith('json')) return { kind: 'json', type: typeOf(content[types[0]!]!.schema, `${context}Response`) };
    if (types.every((type) => !type.includes('json') && !type.startsWith('text/'))) return { kind: 'binary' };
    return { kind: 'raw' };
  }

  function pageOf(answer: Answer, query: Parameter[]): { page?: { item: TypeRef } } {
    if (answer.kind !== 'json' || answer.type.kind !== 'object' || !query.some((p) => p.name === 'starting_after')) return {};
    const page = objects.get(answer.type.name)!;
    const names = page.properties.map((p) => p.name);
    const data = page.properties.find((p) => p.name === 'data');
    if (!data || data.type.kind !== 'array' || !names.includes('has_more') || !names.includes('next_cursor')) return {};
    return { page: { item: data.type.items } };
  }

  const info = document.info as { version: string; title: string };
  return { version: info.version, title: info.title, objects: [...objects.values()], aliases, operations };
}

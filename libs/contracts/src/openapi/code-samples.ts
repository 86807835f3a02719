import type { JsonObject } from './openapi-fragment';

/**
 * Request samples for every operation of a document (`x-codeSamples`, which Redoc shows beside each
 * operation): curl, and Node.js through the SDK (@vaultline/node), whose calls are named after the HTTP
 * methods (`vaultline.get`, `.post`, `.put`, `.patch`, `.delete`) and take the document's path with its
 * `params` and `body`. Both are written from the operation itself: its path and method, its parameters'
 * examples and its request body's example, so they change with the document.
 * libs/contracts/src/openapi/code-samples.test.ts type-checks every Node sample against the SDK's types and
 * checks every curl sample's method, path and body against the document.
 */
export interface CodeSample {
  lang: 'Shell' | 'TypeScript';
  label: string;
  source: string;
}

/** Ids in samples when a parameter has no example of its own: a UUIDv7 shaped like the document's examples. */
const SAMPLE_ID = '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  schema?: JsonObject;
}

/** Who calls: a merchant's secret key (the merchant document) or an operator's admin key (the admin document). */
export type SampleAudience = 'merchant' | 'admin';

/** Adds `x-codeSamples` to every operation of `paths` (in place). `components` resolves the parameters' $refs. */
export function addCodeSamples(
  paths: Record<string, Record<string, JsonObject>>,
  components: { parameters: Record<string, JsonObject> },
  options: { serverUrl: string; audience: SampleAudience },
): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      item[method] = { ...operation, 'x-codeSamples': codeSamplesOf(path, method, operation, components, options) };
    }
  }
}

export function codeSamplesOf(
  path: string,
  method: Method,
  operation: JsonObject,
  components: { parameters: Record<string, JsonObject> },
  options: { serverUrl: string; audience: SampleAudience },
): CodeSample[] {
  const parameters = ((operation.parameters as JsonObject[] | undefined) ?? []).map((p) => resolve(p, components) as unknown as Parameter);
  const values = (where: Parameter['in'], all: boolean) =>
    Object.fromEntries(parameters.filter((p) => p.in === where && (all || p.required)).map((p) => [p.name, sampleValue(p)] as const));
  const pathValues = values('path', true);
  const query = values('query', false) as Record<string, unknown>;
  // Idempotency-Key is the SDK's own business (it sends one with every POST); curl shows it.
  const headers = Object.fromEntries(Object.entries(values('header', true)).filter(([name]) => name !== 'Idempotency-Key'));
  const body = requestExample(operation);
  const keyed = isKeyed(operation, options.audience);
  return [
    {
      lang: 'Shell',
      label: 'curl',
      source: curlSample(
        { path, method, pathValues, query, headers, body, keyed, hasIdempotencyKey: parameters.some((p) => p.name === 'Idempotency-Key') },
        options,
      ),
    },
    { lang: 'TypeScript', label: 'Node.js', source: nodeSample({ path, method, pathValues, query, headers, body }, options) },
  ];
}

interface Call {
  path: string;
  method: Method;
  pathValues: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

function curlSample(call: Call & { keyed: boolean; hasIdempotencyKey: boolean }, options: { serverUrl: string; audience: SampleAudience }): string {
  const base = options.serverUrl.replace(/\/+$/, '');
  const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(call.pathValues[name])));
  const search = new URLSearchParams(Object.entries(call.query).map(([name, value]): [string, string] => [name, String(value)])).toString();
  const lines = [`curl -s -X ${call.method.toUpperCase()} '${base}${path}${search ? `?${search}` : ''}'`];
  if (call.keyed) lines.push(options.audience === 'admin' ? '-H "X-Admin-Key: $VAULTLINE_ADMIN_KEY"' : '-H "X-API-Key: $VAULTLINE_API_KEY"');
  for (const [name, value] of Object.entries(call.headers)) lines.push(`-H '${name}: ${String(value)}'`);
  if (call.method === 'post' && call.hasIdempotencyKey) lines.push(`-H "Idempotency-Key: $(uuidgen)"`);
  if (call.body !== undefined) lines.push("-H 'Content-Type: application/json'", `-d '${JSON.stringify(call.body).replace(/'/g, "'\\''")}'`);
  return lines.join(' \\\n  ');
}

function nodeSample(call: Call, options: { serverUrl: string; audience: SampleAudience }): string {
  const client = options.audience === 'admin' ? 'VaultlineAdmin' : 'Vaultline';
  const variable = options.audience === 'admin' ? 'admin' : 'vaultline';
  const key = options.audience === 'admin' ? 'VAULTLINE_ADMIN_KEY' : 'VAULTLINE_API_KEY';
  const params: Record<string, unknown> = {};
  if (Object.keys(call.pathValues).length > 0) params.path = call.pathValues;
  if (Object.keys(call.query).length > 0) params.query = call.query;
  if (Object.keys(call.headers).length > 0) params.header = call.headers;
  const init: string[] = [];
  if (Object.keys(params).length > 0) init.push(`params: ${literal(params, 1)}`);
  if (call.body !== undefined) init.push(`body: ${literal(call.body, 1)}`);
  const argument = init.length > 0 ? `, {\n  ${init.join(',\n  ')},\n}` : '';
  return [
    `import { ${client} } from '@vaultline/node';`,
    '',
    `const ${variable} = new ${client}(process.env.${key}!, { baseUrl: '${options.serverUrl.replace(/\/+$/, '')}' });`,
    `const result = await ${variable}.${call.method}('${call.path}'${argument});`,
    'console.log(result);',
  ].join('\n');
}

/** A JavaScript literal of a JSON value, indented as the sample around it. */
function literal(value: unknown, depth: number): string {
  const pad = '  '.repeat(depth);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map((item) => literal(item, depth + 1)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
    return `{\n${entries.map(([name, item]) => `${pad}  ${key(name)}: ${literal(item, depth + 1)}`).join(',\n')}\n${pad}}`;
  }
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

function resolve(value: JsonObject, components: { parameters: Record<string, JsonObject> }): JsonObject {
  const ref = value.$ref;
  return typeof ref === 'string' && ref.startsWith('#/components/parameters/')
    ? (components.parameters[ref.slice('#/components/parameters/'.length)] ?? value)
    : value;
}

function sampleValue(parameter: Parameter): unknown {
  const schema = parameter.schema ?? {};
  if (parameter.example !== undefined) return parameter.example;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.format === 'uuid' || schema.$ref === '#/components/schemas/ObjectId' || parameter.name.endsWith('_id')) return SAMPLE_ID;
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  return `my_${parameter.name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
}

/** The JSON request body's example (the first of `examples` when there is no `example`). */
function requestExample(operation: JsonObject): unknown {
  const content = (operation.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined;
  const media = content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const examples = media.examples as Record<string, JsonObject> | undefined;
  const first = examples ? Object.values(examples)[0] : undefined;
  return first?.value ?? {};
}

/** Whether the operation takes the audience's key: its own security, or the document's when it names none (`[]`: public). */
function isKeyed(operation: JsonObject, audience: SampleAudience): boolean {
  const security = operation.security as Array<Record<string, unknown>> | undefined;
  if (security === undefined) return true;
  return security.some((requirement) => (audience === 'admin' ? 'AdminKey' in requirement : 'ApiKey' in requirement));
}

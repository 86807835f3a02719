import { gzipSync } from 'node:zlib';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { startSystem, type RunningSystem } from './support/merchant-api';

/**
 * A small fuzz of every route that takes a body, through the embedded gateway: bodies built to
 * break parsers (issue 16, item 11) must get a 4xx problem, never a 5xx. (The full fuzz suite is
 * later work.)
 */
const PLACEHOLDER_ID = '0190f2a4-0000-7000-8000-000000000001';

interface Operation {
  method: string;
  path: string;
  admin: boolean;
}

function operationsWithBodies(): Operation[] {
  // Both documents: the merchant API and the admin API.
  const paths = { ...(buildOpenApiDocument().paths as object), ...(buildOpenApiDocument({ audience: 'admin' }).paths as object) } as Record<
    string,
    Record<string, { requestBody?: unknown; security?: Array<Record<string, unknown>> }>
  >;
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.requestBody) continue;
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      operations.push({ method: method.toUpperCase(), path, admin: (operation.security ?? []).some((scheme) => 'AdminKey' in scheme) });
    }
  }
  return operations;
}

const deepArray = '['.repeat(100_000) + ']'.repeat(100_000);
const deepObject = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
const notGzip = Buffer.from('{"this is":"not gzip"}');

const hostileBodies: Array<[string, Record<string, string>, Buffer | string]> = [
  ['a 100,000-deep JSON array', { 'content-type': 'application/json' }, deepArray],
  ['a 20,000-deep JSON object', { 'content-type': 'application/json' }, deepObject],
  ['Content-Encoding gzip with a body that is not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, notGzip],
  ['Content-Encoding deflate with a body that is not deflate', { 'content-type': 'application/json', 'content-encoding': 'deflate' }, notGzip],
  ['Content-Encoding br with a body that is not brotli', { 'content-type': 'application/json', 'content-encoding': 'br' }, notGzip],
  ['a truncated gzip body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync('{"a":"' + 'x'.repeat(1000) + '"}').subarray(0, 40)],
  ['an unsupported Content-Encoding', { 'content-type': 'application/json', 'content-encoding': 'zstd' }, notGzip],
  ['a deeply nested form body', { 'content-type': 'application/x-www-form-urlencoded' }, `a${'[a]'.repeat(5_000)}=1`],
];

describe('hostile bodies to every route that takes one, through the embedded gateway', () => {
  let standIns: DestinationStandIns;
  let running: RunningSystem;
  const operations = operationsWithBodies();

  beforeAll(async () => {
    // /forward reads the body only for an allowed destination: a local stand-in (it answers 400 to what it cannot parse).
    standIns = await startDestinationStandIns();
    running = await startSystem(standIns.forwarderEnv, 'vaultline-hostile-');
  });
  afterAll(async () => {
    await running?.stop();
    await standIns?.stop();
  });

  it('finds the routes to try in the OpenAPI document', () => {
    expect(operations.map((operation) => operation.path)).toEqual(
      expect.arrayContaining(['/tokens', '/forward', '/cde-import', '/webhook-endpoints', '/tokens/imports']),
    );
  });

  it.each(hostileBodies)('when %s is sent to every such route, then none answers 5xx', async (_what, headers, body) => {
    const failures: string[] = [];
    for (const operation of operations) {
      const response = await fetch(`${running.system.baseUrl}${operation.path}`, {
        method: operation.method,
        headers: {
          ...headers,
          ...(operation.admin ? { 'X-Admin-Key': running.system.adminApiKey } : { 'X-API-Key': running.merchant.apiKey }),
          // What /forward needs before it reads the body.
          'X-SERVICE-TOKEN': PLACEHOLDER_ID,
          'X-DESTINATION-URL': standIns.adyen.url,
        },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
      const text = await response.text();
      if (response.status >= 500) failures.push(`${operation.method} ${operation.path} → ${response.status} ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

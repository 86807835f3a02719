import { validateAgainstOpenApi } from '@vaultline/contracts';

/** The gateway's PUBLIC_BASE_URL in these tests (and the upstreams'): problems' `type` links under it. */
export const PUBLIC_BASE_URL = 'https://api.vaultline.test';

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

/** One HTTP call with fetch; the body is parsed as JSON when it is JSON. */
export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<CallResult> {
  const response = await fetch(`${baseUrl}${path}`, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  if ((response.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text) as Record<string, unknown>;
  return { status: response.status, headers: response.headers, text, json };
}

/** A call to the admin API with `adminKey` as X-Admin-Key; a body is sent as JSON. */
export function adminCall(baseUrl: string, adminKey: string, path: string, method = 'GET', body?: unknown): Promise<CallResult> {
  return call(baseUrl, path, {
    method,
    headers: { 'x-admin-key': adminKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The answer matches the route's documented response (the OpenAPI document of libs/contracts). */
export function expectDocumented(method: string, template: string, result: CallResult): void {
  const verdict = validateAgainstOpenApi(method, template, result.status, result.json);
  expect({ template, status: result.status, errors: verdict.errors }).toEqual({ template, status: result.status, errors: [] });
}

export function expectProblem(result: CallResult, status: number, code: string): void {
  expect({ status: result.status, code: result.json.code }).toEqual({ status, code });
  expect(result.headers.get('content-type')).toContain('application/problem+json');
  expect(result.json.type).toBe(`${PUBLIC_BASE_URL}/docs/errors#${code}`);
  expect(result.json.request_id).toBe(result.headers.get('x-request-id'));
  expect(result.text).not.toMatch(/\n\s+at /);
}

/** Sends the path exactly as given (fetch would normalise dot segments away). */
export function rawPathCall(baseUrl: string, rawPath: string, headers: Record<string, string>): Promise<{ status: number; code: unknown }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require('node:http') as typeof import('node:http');
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: rawPath, method: 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code?: unknown }).code }));
    });
    req.on('error', reject);
    req.end();
  });
}

import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Vaultline, VaultlineConnectionError, VaultlineError, WebhookVerificationError, verifyWebhook } from '../src/index';

/**
 * The shared test vectors of every Vaultline SDK (sdks/test-vectors: webhooks, errors, retries), run by the
 * Node SDK as the Python and Go SDKs run them.
 */
const vectors = <T>(name: string): T[] =>
  (JSON.parse(readFileSync(join(__dirname, '../../../sdks/test-vectors', `${name}.json`), 'utf8')) as { cases: T[] }).cases;

interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  drop?: boolean;
}
interface Seen {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that answers the script in turn (then 200 {}), recording every request; drop closes the connection unanswered. */
async function scriptedServer(answers: ScriptedAnswer[]): Promise<{ url: string; seen: Seen[]; stop(): Promise<void> }> {
  const script = [...answers];
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = script.shift() ?? { status: 200, body: {} };
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status!, answer.headers).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface WebhookCase {
  name: string;
  secret: string;
  payload: string;
  id: string | null;
  timestamp: string | null;
  signature: string | null;
  header_case?: 'upper';
  now: number;
  valid: boolean;
}

describe('the shared webhook vectors', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(vectors<WebhookCase>('webhooks').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    jest.spyOn(Date, 'now').mockReturnValue(c.now * 1000);
    const named = { 'webhook-id': c.id, 'webhook-timestamp': c.timestamp, 'webhook-signature': c.signature };
    const headers = Object.fromEntries(
      Object.entries(named).flatMap(([name, value]) => (value === null ? [] : [[c.header_case === 'upper' ? name.toUpperCase() : name, value]])),
    );
    const verify = () => verifyWebhook(Buffer.from(c.payload, 'utf8'), headers, c.secret);
    if (c.valid) expect(verify()).toEqual(JSON.parse(c.payload));
    else expect(verify).toThrow(WebhookVerificationError);
  });
});

type ExpectedError = {
  kind: string;
  status?: number;
  code?: string;
  detail?: string | null;
  field?: string | null;
  request_id?: string | null;
  type?: string | null;
};

function expectError(error: unknown, expected: ExpectedError): void {
  if (expected.kind === 'connection') {
    expect(error).toBeInstanceOf(VaultlineConnectionError);
    expect((error as VaultlineConnectionError).kind).toBe('connection');
    return;
  }
  expect(error).toBeInstanceOf(VaultlineError);
  const e = error as VaultlineError;
  const got: Record<string, unknown> = {
    kind: e.kind,
    status: e.status,
    code: e.code,
    detail: e.detail,
    field: e.field ?? null,
    request_id: e.requestId ?? null,
    type: e.type ?? null,
  };
  expect(Object.fromEntries(Object.keys(expected).map((key) => [key, got[key]]))).toEqual(expected);
}

describe('the shared error vectors', () => {
  it.each(vectors<{ name: string; answer: ScriptedAnswer; error: ExpectedError }>('errors').map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const server = await scriptedServer([c.answer]);
    try {
      const error = await new Vaultline('sk_test_vectors', { baseUrl: server.url, maxRetries: 0 }).request('GET', '/vector').catch((thrown: unknown) => thrown);
      expectError(error, c.error);
    } finally {
      await server.stop();
    }
  });
});

interface RetryCase {
  name: string;
  request: { method: string; path: string; body?: unknown; idempotency_key?: string };
  max_retries: number;
  answers: ScriptedAnswer[];
  expect: { requests: number; waits_ms: Array<{ min: number; max: number }>; idempotency_key: string | null; result?: unknown; error?: ExpectedError };
}

describe('the shared retry vectors', () => {
  it.each(vectors<RetryCase>('retries').map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const server = await scriptedServer(c.answers);
    const waits: number[] = [];
    try {
      const client = new Vaultline('sk_test_vectors', { baseUrl: server.url, maxRetries: c.max_retries, sleep: async (ms) => void waits.push(ms) });
      const headers = c.request.idempotency_key ? { 'Idempotency-Key': c.request.idempotency_key } : undefined;
      const outcome = await client.request(c.request.method, c.request.path, { body: c.request.body, headers }).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );

      expect(server.seen).toHaveLength(c.expect.requests);
      expect(waits).toHaveLength(c.expect.waits_ms.length);
      waits.forEach((wait, n) => {
        expect(Math.round(wait)).toBeGreaterThanOrEqual(c.expect.waits_ms[n]!.min);
        expect(Math.round(wait)).toBeLessThanOrEqual(c.expect.waits_ms[n]!.max);
      });
      const keys = new Set(server.seen.map((seen) => seen.headers['idempotency-key'] ?? null));
      expect(keys.size).toBe(1);
      const [key] = keys;
      if (c.expect.idempotency_key === 'generated') expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      else expect(key).toBe(c.expect.idempotency_key);
      expect(new Set(server.seen.map((seen) => seen.body)).size).toBe(1);
      if (c.request.body !== undefined) expect(JSON.parse(server.seen[0]!.body)).toEqual(c.request.body);
      if (c.expect.error) expectError((outcome as { error: unknown }).error, c.expect.error);
      else expect(outcome).toEqual({ result: c.expect.result });
    } finally {
      await server.stop();
    }
  });
});

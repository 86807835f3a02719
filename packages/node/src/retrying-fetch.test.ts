import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_RETRY_OPTIONS, retryAfterMs, retryingFetch } from './retrying-fetch';
import { VaultlineConnectionError } from './errors';

interface Seen {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that answers the queued statuses in turn (then 200), recording every request. */
async function serverAnswering(
  answers: Array<{ status: number; headers?: Record<string, string> }>,
): Promise<{ url: string; seen: Seen[]; stop(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify({ attempt: seen.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/payments/one-off`,
    seen,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the retrying fetch', () => {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  beforeEach(() => waits.splice(0));

  it('when a POST meets 429 with Retry-After and then 503, then it is sent three times with one Idempotency-Key and the same body, waiting as Retry-After says', async () => {
    const server = await serverAnswering([{ status: 429, headers: { 'retry-after': '2' } }, { status: 503 }]);
    try {
      const fetch = retryingFetch({ ...DEFAULT_RETRY_OPTIONS, maxRetries: 3 }, undefined, sleep);
      const response = await fetch(new Request(server.url, { method: 'POST', body: '{"amount":1999}', headers: { 'content-type': 'application/json' } }));
      expect(response.status).toBe(200);
      expect(server.seen).toHaveLength(3);
      const keys = new Set(server.seen.map((s) => s.headers['idempotency-key']));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.seen.map((s) => s.body)).toEqual(['{"amount":1999}', '{"amount":1999}', '{"amount":1999}']);
      expect(waits[0]).toBe(2000);
      expect(waits[1]).toBeGreaterThanOrEqual(DEFAULT_RETRY_OPTIONS.initialDelayMs);
    } finally {
      await server.stop();
    }
  });

  it('when the caller gave an Idempotency-Key, then that key is kept', async () => {
    const server = await serverAnswering([{ status: 500 }]);
    try {
      await retryingFetch(
        DEFAULT_RETRY_OPTIONS,
        undefined,
        sleep,
      )(new Request(server.url, { method: 'POST', body: '{}', headers: { 'Idempotency-Key': 'order-42' } }));
      expect(server.seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-42', 'order-42']);
    } finally {
      await server.stop();
    }
  });

  it('when the retries are spent, then the last answer is returned as it is', async () => {
    const server = await serverAnswering([{ status: 502 }, { status: 502 }, { status: 502 }]);
    try {
      const response = await retryingFetch({ ...DEFAULT_RETRY_OPTIONS, maxRetries: 2 }, undefined, sleep)(new Request(server.url));
      expect({ status: response.status, attempts: server.seen.length }).toEqual({ status: 502, attempts: 3 });
    } finally {
      await server.stop();
    }
  });

  it('when the answer is a 4xx other than 429, then it is not retried, and a GET gets no Idempotency-Key', async () => {
    const server = await serverAnswering([{ status: 422 }]);
    try {
      const response = await retryingFetch(DEFAULT_RETRY_OPTIONS, undefined, sleep)(new Request(server.url));
      expect({ status: response.status, attempts: server.seen.length, key: server.seen[0]?.headers['idempotency-key'] }).toEqual({
        status: 422,
        attempts: 1,
        key: undefined,
      });
    } finally {
      await server.stop();
    }
  });

  it('when nothing listens, then it retries and then throws a VaultlineConnectionError', async () => {
    const server = await serverAnswering([]);
    await server.stop();
    const attempt = retryingFetch({ ...DEFAULT_RETRY_OPTIONS, maxRetries: 2 }, undefined, sleep)(new Request(server.url, { method: 'POST', body: '{}' }));
    await expect(attempt).rejects.toBeInstanceOf(VaultlineConnectionError);
    expect(waits).toHaveLength(2);
  });

  it('reads Retry-After in seconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

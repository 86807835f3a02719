import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CSRF_HEADER, Vaultline, VaultlineAdmin } from './vaultline';
import { randomUuid } from './retrying-fetch';

/** A server that answers every request with an empty page of a list, recording the request headers. */
async function recordingServer(): Promise<{ url: string; seen: IncomingHttpHeaders[]; stop(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req
      .resume()
      .on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], has_more: false, next_cursor: null })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('a client signed in by a dashboard session', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  beforeEach(async () => {
    server = await recordingServer();
  });
  afterEach(() => server.stop());

  it('when the merchant client calls the API with a session, then every request carries the CSRF token, no API key, and asks for the same-origin cookies', async () => {
    const credentialsSent: string[] = [];
    const vaultline = new Vaultline(
      { csrfToken: 'csrf-1', mode: 'live' },
      { baseUrl: server.url, fetch: (request) => (credentialsSent.push(request.credentials), fetch(request)) },
    );

    await vaultline.get('/payments', { params: { query: { reference: 'order-1' } } });
    await vaultline.post('/payments/{payment_id}/cancel', { params: { path: { payment_id: 'pay_1' } }, body: {} });
    await vaultline.request('GET', '/a-newer-route');

    expect(vaultline.mode).toBe('live');
    expect(server.seen.map((headers) => headers[CSRF_HEADER.toLowerCase()])).toEqual(['csrf-1', 'csrf-1', 'csrf-1']);
    expect(server.seen.map((headers) => headers['x-api-key'])).toEqual([undefined, undefined, undefined]);
    expect(credentialsSent).toEqual(['same-origin', 'same-origin', 'same-origin']);
  });

  it('when the operator client calls the API with a session, then it sends the CSRF token and no admin key', async () => {
    const admin = new VaultlineAdmin({ csrfToken: 'csrf-2' }, { baseUrl: server.url });

    await admin.get('/admin/merchants');

    expect(server.seen[0]?.[CSRF_HEADER.toLowerCase()]).toBe('csrf-2');
    expect(server.seen[0]?.['x-admin-key']).toBeUndefined();
  });

  it('when a client is made with a key, then it asks for no cookies (fetch decides) and sends no CSRF header', async () => {
    const credentialsSent: string[] = [];
    const vaultline = new Vaultline('sk_test_abc', { baseUrl: server.url, fetch: (request) => (credentialsSent.push(request.credentials), fetch(request)) });

    await vaultline.get('/payments');

    expect(server.seen[0]?.['x-api-key']).toBe('sk_test_abc');
    expect(server.seen[0]?.[CSRF_HEADER.toLowerCase()]).toBeUndefined();
    expect(credentialsSent).toEqual(['same-origin']); // fetch's own default
  });
});

describe('the idempotency key of a POST', () => {
  it('when crypto.randomUUID is missing (a browser page served over plain http), then a version 4 UUID is built from getRandomValues', () => {
    const randomUUID = Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID');
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => randomUuid()));
      expect(keys.size).toBe(50);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      if (randomUUID) Object.defineProperty(globalThis.crypto, 'randomUUID', randomUUID);
      else delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { connect as connectNet, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import {
  createEgressClient,
  EgressBlockedError,
  EgressInvalidHeaderError,
  EgressResponseTooLargeError,
  EgressTimeoutError,
  EgressUnreachableError,
  type EgressClient,
  type EgressClientOptions,
  parseEgressProxy,
} from '../src';

interface StandIn {
  port: number;
  connections: number;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

async function startStandIn(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<StandIn> {
  const sockets = new Set<Socket>();
  const state: StandIn = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      sockets.forEach((s) => s.destroy());
      server.close(() => resolve());
    });
  return state;
}

const base: EgressClientOptions = { allowPrivate: false, httpsOnly: false, connectTimeoutMs: 500, totalTimeoutMs: 1_000, maxResponseBytes: 1024 };

describe('createEgressClient', () => {
  let standIn: StandIn;
  let client: EgressClient;
  afterEach(async () => {
    await client?.close();
    await standIn?.close();
  });

  it('when the destination is a loopback address not listed as allowed, then it is blocked and no connection is made', async () => {
    standIn = await startStandIn((_req, res) => res.end('ok'));
    client = createEgressClient(base);
    const error = await client.request({ url: `http://127.0.0.1:${standIn.port}/pay`, method: 'POST', headers: {}, body: '{}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressBlockedError);
    expect((error as EgressBlockedError).reason).toBe('private_address');
    expect(standIn.connections).toBe(0);
  });

  it('when a host name resolves to a private address, then it is blocked at connect time and no connection is made', async () => {
    standIn = await startStandIn((_req, res) => res.end('ok'));
    client = createEgressClient({ ...base, resolve: async () => ['127.0.0.1'] });
    await expect(client.request({ url: `http://rebind.test:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toMatchObject({
      reason: 'private_address',
    });
    expect(standIn.connections).toBe(0);
  });

  it('when the client is loopback-only, then a receiver on 127.0.0.1 or localhost is reached over http', async () => {
    standIn = await startStandIn((_req, res) => res.end('ok'));
    client = createEgressClient({ ...base, loopbackOnly: true });
    expect((await client.request({ url: `http://127.0.0.1:${standIn.port}/hook`, method: 'POST', headers: {}, body: '{}' })).status).toBe(200);
    expect((await client.request({ url: `http://localhost:${standIn.port}/hook`, method: 'POST', headers: {}, body: '{}' })).status).toBe(200);
  });

  it('when the client is loopback-only and a name resolves to a private or public address, then it is blocked and no connection is made', async () => {
    standIn = await startStandIn((_req, res) => res.end('ok'));
    for (const address of ['10.0.0.5', '169.254.169.254', '93.184.216.34']) {
      client = createEgressClient({ ...base, loopbackOnly: true, resolve: async () => [address] });
      await expect(client.request({ url: `http://localhost:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toMatchObject({
        reason: 'private_address',
      });
      await client.close();
    }
    client = createEgressClient({ ...base, loopbackOnly: true, resolve: async () => ['127.0.0.1', '10.0.0.5'] });
    await expect(client.request({ url: `http://localhost:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toMatchObject({ reason: 'private_address' });
    expect(standIn.connections).toBe(0);
  });

  it('when a host:port is listed as allowed although private, then the request goes to the checked address with the original Host header', async () => {
    standIn = await startStandIn((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.statusCode = 201;
      res.end('{"ok":true}');
    });
    let lookups = 0;
    client = createEgressClient({
      ...base,
      allowPrivateHosts: [`stand-in.test:${standIn.port}`],
      resolve: async () => {
        lookups += 1;
        return ['127.0.0.1'];
      },
    });
    const response = await client.request({
      url: `http://stand-in.test:${standIn.port}/v69/payments?x=1`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Host: 'evil.internal', Connection: 'close', 'X-API-Key': 'k' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body.toString()).toBe('{"ok":true}');
    expect(response.timings.totalMs).toBeGreaterThan(0);
    const received = standIn.requests[0]!;
    expect(received.url).toBe('/v69/payments?x=1');
    expect(received.headers.host).toBe(`stand-in.test:${standIn.port}`);
    expect(received.headers['x-api-key']).toBe('k');
    expect(received.headers.connection).not.toBe('close');
    expect(received.body).toBe('{"a":1}');
    expect(lookups).toBe(1);
  });

  it('when the destination answers with a redirect, then it is returned as is and not followed', async () => {
    standIn = await startStandIn((req, res) => {
      res.statusCode = req.url === '/start' ? 302 : 200;
      if (req.url === '/start') res.setHeader('location', '/elsewhere');
      res.end();
    });
    client = createEgressClient({ ...base, allowPrivateHosts: [`127.0.0.1:${standIn.port}`] });
    const response = await client.request({ url: `http://127.0.0.1:${standIn.port}/start`, method: 'GET', headers: {} });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/elsewhere');
    expect(standIn.requests.map((r) => r.url)).toEqual(['/start']);
  });

  it('when https is required, then an http URL is blocked before any connection', async () => {
    standIn = await startStandIn((_req, res) => res.end());
    client = createEgressClient({ ...base, httpsOnly: true, allowPrivate: true });
    await expect(client.request({ url: `http://127.0.0.1:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toMatchObject({
      reason: 'scheme_not_allowed',
    });
    expect(standIn.connections).toBe(0);
  });

  it('when a header value holds CR/LF, then the request is rejected and nothing is sent', async () => {
    standIn = await startStandIn((_req, res) => res.end());
    client = createEgressClient({ ...base, allowPrivate: true });
    await expect(
      client.request({ url: `http://127.0.0.1:${standIn.port}/`, method: 'GET', headers: { 'X-Key': 'a\r\nX-Injected: yes' } }),
    ).rejects.toBeInstanceOf(EgressInvalidHeaderError);
    expect(standIn.connections).toBe(0);
  });

  it('when the streamed response exceeds the size limit, then it fails with response too large', async () => {
    standIn = await startStandIn((_req, res) => {
      res.write('x'.repeat(800));
      res.write('x'.repeat(800));
      res.end();
    });
    client = createEgressClient({ ...base, allowPrivate: true });
    await expect(client.request({ url: `http://127.0.0.1:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toBeInstanceOf(EgressResponseTooLargeError);
  });

  it('when the declared content length exceeds the size limit, then it fails with response too large', async () => {
    standIn = await startStandIn((_req, res) => {
      res.setHeader('content-length', '5000');
      res.end('x'.repeat(5000));
    });
    client = createEgressClient({ ...base, allowPrivate: true });
    await expect(client.request({ url: `http://127.0.0.1:${standIn.port}/`, method: 'GET', headers: {} })).rejects.toBeInstanceOf(EgressResponseTooLargeError);
  });

  it('when the destination does not answer within the total timeout, then it fails with a response timeout', async () => {
    standIn = await startStandIn(() => undefined);
    client = createEgressClient({ ...base, allowPrivate: true, totalTimeoutMs: 200 });
    const error = await client.request({ url: `http://127.0.0.1:${standIn.port}/`, method: 'GET', headers: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressTimeoutError);
    expect((error as EgressTimeoutError).phase).toBe('response');
    expect((error as EgressTimeoutError).status).toBe(504);
  });

  it('when resolving and connecting take longer than the connect timeout, then it fails with a connect timeout', async () => {
    standIn = await startStandIn((_req, res) => res.end());
    client = createEgressClient({ ...base, connectTimeoutMs: 100, resolve: () => new Promise<string[]>(() => undefined) });
    const error = await client.request({ url: `http://slow-dns.test:${standIn.port}/`, method: 'GET', headers: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressTimeoutError);
    expect((error as EgressTimeoutError).phase).toBe('connect');
  });

  it('when nothing listens on the port, then it fails as unreachable', async () => {
    standIn = await startStandIn((_req, res) => res.end());
    const port = standIn.port;
    await standIn.close();
    client = createEgressClient({ ...base, allowPrivate: true });
    const error = await client.request({ url: `http://127.0.0.1:${port}/`, method: 'GET', headers: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressUnreachableError);
    expect((error as EgressUnreachableError).status).toBe(502);
  });
});

/** An HTTP CONNECT proxy as a platform runs one (Smokescreen, Squid): it records each CONNECT, refuses hosts off its allowlist, and tunnels the others to `upstreamPort` on this machine. */
async function startConnectProxy(allowed: string[], upstreamPort: () => number) {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.once('data', (head: Buffer) => {
      const target = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head.toString('latin1'))?.[1] ?? '';
      connects.push(target);
      if (!allowed.includes(target.replace(/:\d+$/, ''))) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      const upstream = connectNet(upstreamPort(), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        client.pipe(upstream).pipe(client);
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('createEgressClient through an egress proxy (EGRESS_PROXY_URL)', () => {
  let standIn: StandIn | undefined;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>> | undefined;
  let client: EgressClient | undefined;
  // The destination's name resolves to a public address (the check passes); only the proxy connects onwards.
  const viaProxy = (url: string): EgressClientOptions => ({ ...base, resolve: async () => ['93.184.216.34'], proxy: parseEgressProxy(url) });
  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    await standIn?.close();
    [client, proxy, standIn] = [undefined, undefined, undefined];
  });

  it('when a destination is called, then the request goes through one CONNECT naming the destination by host and port, and its answer comes back', async () => {
    const destination = (standIn = await startStandIn((_req, res) => res.end('paid')));
    proxy = await startConnectProxy(['api.processor.example'], () => destination.port);
    client = createEgressClient(viaProxy(proxy.url));

    const response = await client.request({ url: 'http://api.processor.example:8443/v1/payments', method: 'POST', headers: {}, body: '{}' });

    expect({ status: response.status, body: response.body.toString() }).toEqual({ status: 200, body: 'paid' });
    expect(proxy.connects).toEqual(['api.processor.example:8443']);
    expect(destination.requests.map((request) => `${request.method} ${request.url} ${request.headers.host}`)).toEqual([
      'POST /v1/payments api.processor.example:8443',
    ]);
  });

  it('when the proxy refuses the destination, then the request fails as not allowed (proxy_refused) and nothing reaches it', async () => {
    const destination = (standIn = await startStandIn((_req, res) => res.end('paid')));
    proxy = await startConnectProxy(['api.processor.example'], () => destination.port);
    client = createEgressClient(viaProxy(proxy.url));

    const error = await client.request({ url: 'http://evil.example/steal', method: 'POST', headers: {}, body: '{}' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EgressBlockedError);
    expect((error as EgressBlockedError).reason).toBe('proxy_refused');
    expect(proxy.connects).toEqual(['evil.example:80']);
    expect(destination.connections).toBe(0);
  });

  it('when the destination resolves to a private address, then it is refused before the proxy is asked', async () => {
    proxy = await startConnectProxy(['internal.example'], () => 1);
    client = createEgressClient({ ...viaProxy(proxy.url), resolve: async () => ['10.0.0.7'] });

    await expect(client.request({ url: 'http://internal.example/', method: 'GET', headers: {} })).rejects.toMatchObject({ reason: 'private_address' });
    expect(proxy.connects).toEqual([]);
  });

  it('when the proxy cannot be reached, then the request fails as unreachable (retryable)', async () => {
    const closed = await startConnectProxy([], () => 1);
    await closed.close();
    client = createEgressClient(viaProxy(closed.url));

    await expect(client.request({ url: 'https://api.processor.example/', method: 'GET', headers: {} })).rejects.toBeInstanceOf(EgressUnreachableError);
  });

  it('when an egress proxy URL carries credentials, a path or another scheme, then it is refused', () => {
    expect(parseEgressProxy('http://egress-proxy.egress:4750')).toEqual({ host: 'egress-proxy.egress', port: 4750 });
    for (const url of ['https://proxy:3128', 'http://user:pw@proxy:3128', 'http://proxy:3128/path'])
      expect(() => parseEgressProxy(url)).toThrow('an egress proxy is http://host:port');
  });

  it('when the destination is https, then its TLS handshake runs inside the tunnel, named after the host (SNI), and an untrusted certificate is refused there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vaultline-egress-tls-'));
    const sni: string[] = [];
    const tlsServer = createTlsServer(
      { ...selfSigned(dir, 'api.processor.example'), SNICallback: (name, done) => (sni.push(name), done(null, undefined)) },
      (socket) => socket.end(),
    );
    try {
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      proxy = await startConnectProxy(['api.processor.example'], () => (tlsServer.address() as AddressInfo).port);
      client = createEgressClient(viaProxy(proxy.url));

      await expect(client.request({ url: 'https://api.processor.example/v1/payments', method: 'POST', headers: {}, body: '{}' })).rejects.toBeInstanceOf(
        EgressUnreachableError,
      );
      expect(proxy.connects).toEqual(['api.processor.example:443']);
      expect(sni).toEqual(['api.processor.example']);
    } finally {
      await new Promise((resolve) => tlsServer.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A self-signed certificate for `host` (openssl), which no client trusts. */
function selfSigned(dir: string, host: string): { key: Buffer; cert: Buffer } {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

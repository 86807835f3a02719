import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryDocumentStore } from '@vaultline/store';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { call, expectProblem } from './support/http-call';

/** A GET with the path sent exactly as written (fetch would resolve the dot segments first). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

let upstreams: Upstreams;
const dir = mkdtempSync(join(tmpdir(), 'vaultline-dashboard-app-'));
const built = join(dir, 'dist');
const unbuilt = join(dir, 'nothing-here');

beforeAll(async () => {
  upstreams = await startUpstreams();
  mkdirSync(join(built, 'assets'), { recursive: true });
  writeFileSync(
    join(built, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/dashboard/assets/app-3f9a1c.js"></script></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(join(built, 'assets', 'app-3f9a1c.js'), 'console.log("dashboard")');
  writeFileSync(join(built, 'assets', 'chart-7b2e10.js'), `export const chart = ${JSON.stringify(Array.from({ length: 4_000 }, (_, i) => `point-${i}`))};`);
  writeFileSync(join(built, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'secret.txt'), 'outside the build');
});

afterAll(async () => {
  await upstreams.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dashboard at /dashboard', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(upstreams, new MemoryDocumentStore(), { DASHBOARD_DIST_DIR: built });
  });
  afterAll(() => gateway.close());

  it('when /dashboard is opened, then index.html is served with the strict policy, nosniff, and never cached', async () => {
    for (const path of ['/dashboard', '/dashboard/']) {
      const page = await call(gateway.url, path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('<div id="app">');
      expect(page.headers.get('content-security-policy')).toBe(CSP);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it("when one of the app's own pages is opened directly, then index.html answers (the app routes in the browser)", async () => {
    const page = await call(gateway.url, '/dashboard/payments/019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e01');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="app">');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('when a hashed bundle is fetched, then it is cached for a year; another file is revalidated; a missing file is 404', async () => {
    const bundle = await call(gateway.url, '/dashboard/assets/app-3f9a1c.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bundle.headers.get('content-security-policy')).toBe(CSP);
    expect((await call(gateway.url, '/dashboard/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
    expectProblem(await call(gateway.url, '/dashboard/assets/missing-000000.js'), 404, 'route_not_found');
  });

  it('when a browser that accepts gzip fetches a bundle, then it comes gzipped with Vary and an ETag, and revalidating with the ETag answers 304', async () => {
    const url = new URL(gateway.url);
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: '/dashboard/assets/chart-7b2e10.js', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const plain = await get({});
    const gzipped = await get({ 'accept-encoding': 'gzip' });
    expect([gzipped.status, gzipped.headers['content-encoding'], gzipped.headers.vary]).toEqual([200, 'gzip', 'Accept-Encoding']);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 4);
    const again = await get({ 'accept-encoding': 'gzip', 'if-none-match': String(gzipped.headers.etag) });
    expect([again.status, again.body.length]).toEqual([304, 0]);
  });

  it('when a path climbs out of the build, then nothing outside it is served', async () => {
    for (const path of ['/dashboard/../secret.txt', '/dashboard/%2e%2e/secret.txt', '/dashboard/assets/..%2f..%2fsecret.txt', '/dashboard/..%5csecret.txt']) {
      const answer = await rawGet(gateway.url, path);
      expect({ path, leaked: answer.body.includes('outside the build') }).toEqual({ path, leaked: false });
    }
  });

  it('when a change is sent to /dashboard, then it answers 404', async () => {
    expectProblem(await call(gateway.url, '/dashboard/payments', { method: 'POST' }), 404, 'route_not_found');
  });
});

describe('the dashboard before it is built', () => {
  it('when DASHBOARD_DIST_DIR holds no index.html, then /dashboard answers 503 with a page saying how to build it', async () => {
    const gateway = await startGateway(upstreams, new MemoryDocumentStore(), { DASHBOARD_DIST_DIR: unbuilt });
    try {
      const page = await call(gateway.url, '/dashboard/overview');
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('pnpm build');
      expect(page.headers.get('content-security-policy')).toBe(CSP);
    } finally {
      await gateway.close();
    }
  });
});

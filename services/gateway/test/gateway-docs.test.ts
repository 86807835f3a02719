import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { waitFor } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { ERROR_CATALOGUE, invalidExamples } from '@vaultline/contracts';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { PUBLIC_BASE_URL, call, expectProblem } from './support/http-call';

/** A GET as a browser sends it, the body as it came over the wire (fetch would decode it). */
function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (answer: { headers: Record<string, string | string[] | undefined>; body: Buffer }): Buffer =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

describe('the documentation the gateway serves without a key', () => {
  let upstreams: Upstreams;
  let gateway: RunningGateway;

  beforeAll(async () => {
    upstreams = await startUpstreams();
    gateway = await startGateway(upstreams, new MemoryDocumentStore());
  });
  afterAll(async () => {
    await gateway.close();
    await upstreams.close();
  });

  it('when / is called without a key, then it answers a JSON index linking the dashboard, the reference, the quick start, both documents, the guides and health', async () => {
    const index = await call(gateway.url, '/');
    expect(index.status).toBe(200);
    expect(index.json.links).toMatchObject({
      dashboard: `${PUBLIC_BASE_URL}/dashboard/`,
      docs: `${PUBLIC_BASE_URL}/docs`,
      quick_start: `${PUBLIC_BASE_URL}/docs/guides#quick-start`,
      guides: `${PUBLIC_BASE_URL}/docs/guides`,
      openapi: `${PUBLIC_BASE_URL}/openapi.json`,
      admin_openapi: `${PUBLIC_BASE_URL}/admin/openapi.json`,
      health: `${PUBLIC_BASE_URL}/health`,
    });
  });

  it('when a browser asks for /favicon.ico, then it gets an empty 204, not a 401', async () => {
    const favicon = await call(gateway.url, '/favicon.ico');
    expect([favicon.status, favicon.text]).toEqual([204, '']);
  });

  it('when the two OpenAPI documents are fetched, then the merchant one has no admin path, the admin one only admin paths, both at this gateway, every example valid', async () => {
    const merchant = await call(gateway.url, '/openapi.json');
    const admin = await call(gateway.url, '/admin/openapi.json');
    const merchantPaths = Object.keys(merchant.json.paths as object);
    const adminPaths = Object.keys(admin.json.paths as object);
    expect(merchantPaths).toContain('/payments/one-off');
    expect(merchantPaths.some((path) => path.startsWith('/admin'))).toBe(false);
    expect(adminPaths).toContain('/admin/merchants');
    expect(adminPaths.every((path) => path.startsWith('/admin/'))).toBe(true);
    for (const document of [merchant.json, admin.json]) {
      expect(document.servers).toEqual([{ url: PUBLIC_BASE_URL }]);
      expect(invalidExamples(document)).toEqual([]);
    }
  });

  it.each([
    ['/docs', '/openapi.json'],
    ['/docs/admin', '/admin/openapi.json'],
  ])('when %s is opened, then Redoc is loaded from this gateway (no other origin) for %s, under a policy that allows only that', async (page, spec) => {
    const html = await call(gateway.url, page);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain(`data-spec="${spec}"`);
    const scripts = [...html.text.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    expect(scripts).toEqual([
      expect.stringMatching(/^\/docs\/assets\/redoc\.standalone\.js\?v=[\w-]{12}$/),
      expect.stringMatching(/^\/docs\/assets\/reference\.js\?v=[\w-]{12}$/),
    ]);
    expect(html.text).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    const policy = html.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|https?:)/);
    for (const script of scripts) {
      const asset = await call(gateway.url, script!);
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    }
    expect((await call(gateway.url, '/docs/assets/redoc.standalone.js')).text.length).toBeGreaterThan(500_000);
    expectProblem(await call(gateway.url, '/docs/assets/nothing.js'), 404, 'asset_not_found');
  });

  it("when the guides are opened, then they link the reference and hold the quick start, every processor's test cards, the lifecycle, 3-D Secure and 3RI, webhooks and local webhooks, the dashboard, SDK, CLI and example shop, errors, idempotency, the test clock and test and live", async () => {
    const guides = await call(gateway.url, '/docs/guides');
    expect(guides.status).toBe(200);
    const sections = [
      'quick-start',
      'test-cards',
      'payment-lifecycle',
      'three-d-secure',
      'declines-and-routing',
      'webhooks',
      'local-webhooks',
      'dashboard',
      'sdk',
      'cli',
      'example-shop',
      'errors',
      'idempotency',
      'test-clock',
      'test-and-live',
    ];
    for (const id of sections) expect({ id, present: guides.text.includes(`id="${id}"`) }).toEqual({ id, present: true });
    const simulator = [
      '4000 0000 0000 0002',
      '4000 0000 0000 9995',
      '4000 0000 0000 3063',
      '4000 0000 0000 3097',
      '4000 0084 0000 1629',
      '4000 0000 0000 3220',
      '4000 0000 0000 0259',
      '4000 0000 0000 0267',
      '4000 0000 0000 0119',
      '4000 0000 0000 5126',
      '4000 0000 0000 2685',
      '4000 0027 6000 3184',
      '4000 0000 0000 9979',
      '4000 0000 0000 0341',
      '5105 1051 0510 5100',
    ];
    const processors = [
      '4111 1111 1111 1111',
      '4917 6100 0000 0000',
      '4543 4740 0224 9996',
      '4000 0027 6000 3184',
      '4000 0000 0000 7726',
      '4242 4242 4242 4242',
    ];
    for (const card of [...simulator, ...processors])
      expect({ card, copy: guides.text.includes(`data-copy="${card.replace(/ /g, '')}"`) }).toEqual({ card, copy: true });
    expect(guides.text).toContain('<h3>Stripe</h3>');
    expect(guides.text).toContain('3-D Secure Requestor Initiated');
    for (const phrase of [
      'vaultline listen --forward-to http://localhost:4242/webhooks/vaultline',
      'vaultline trigger payment.captured',
      '@vaultline/node',
      '@vaultline/cli',
      'WEBHOOK_ALLOW_PRIVATE_URLS',
      'payment.attempt_failed',
      'amount.refund_pending',
    ])
      expect(guides.text).toContain(phrase);
    expect(guides.text).toContain('href="/docs"');
    expect(guides.text).toContain(`${PUBLIC_BASE_URL}/payments/one-off`);
    // One script, ours: the copy buttons (hidden until it runs).
    expect([...guides.text.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1])).toEqual([expect.stringMatching(/^\/docs\/assets\/guides\.js\?v=/)]);
    expect(guides.text).not.toMatch(/<script>/);
    const policy = guides.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
  });

  it("when Redoc's bundle is fetched with Accept-Encoding br, gzip, then it comes compressed (gzip at first, brotli once ready), decodes to the same bytes, and is cached a year at its versioned address", async () => {
    const page = await call(gateway.url, '/docs');
    const bundle = /src="(\/docs\/assets\/redoc\.standalone\.js\?v=[^"]+)"/.exec(page.text)![1]!;
    const identity = await rawGet(gateway.url, bundle);
    expect([identity.status, identity.headers['content-encoding'], identity.headers.vary]).toEqual([200, undefined, 'Accept-Encoding']);
    expect(identity.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const first = await rawGet(gateway.url, bundle, { 'accept-encoding': 'br, gzip' });
    expect(['br', 'gzip']).toContain(first.headers['content-encoding']);
    expect(decoded(first).equals(identity.body)).toBe(true);
    const brotli = await waitFor(
      async () => {
        const next = await rawGet(gateway.url, bundle, { 'accept-encoding': 'br, gzip' });
        return next.headers['content-encoding'] === 'br' ? next : null;
      },
      30_000,
      20,
    );
    expect(decoded(brotli).equals(identity.body)).toBe(true);
    expect(brotli.body.length).toBeLessThan(identity.body.length * 0.35);
    expect(brotli.headers.etag).toMatch(/-br"$/);
    // Without the version (an old page, a hand-typed address) it is checked each time.
    expect((await rawGet(gateway.url, '/docs/assets/redoc.standalone.js')).headers['cache-control']).toBe('no-cache');
  }, 60_000);

  it('when a browser revalidates the OpenAPI document or a page with its ETag, then the answer is 304 without a body; the document itself comes gzipped with Vary', async () => {
    for (const path of ['/openapi.json', '/docs/guides', '/docs/errors', '/docs']) {
      const first = await rawGet(gateway.url, path, { 'accept-encoding': 'gzip' });
      // The reference's page is a few hundred bytes: not worth compressing.
      const encoding = path === '/docs' ? undefined : 'gzip';
      expect({ path, encoding: first.headers['content-encoding'], vary: first.headers.vary, cache: first.headers['cache-control'] }).toEqual({
        path,
        encoding,
        vary: 'Accept-Encoding',
        cache: 'no-cache',
      });
      const again = await rawGet(gateway.url, path, { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
      expect({ path, status: again.status, length: again.body.length }).toEqual({ path, status: 304, length: 0 });
    }
    const document = await rawGet(gateway.url, '/openapi.json', { 'accept-encoding': 'gzip' });
    const parsed = JSON.parse(decoded(document).toString('utf8')) as { paths: Record<string, Record<string, { 'x-codeSamples'?: Array<{ label: string }> }>> };
    expect(parsed.paths['/payments/one-off']!.post!['x-codeSamples']!.map((sample) => sample.label)).toEqual(['curl', 'Node.js']);
  });

  it("when a problem is answered, then its type is this gateway's /docs/errors#{code}, and that page has the anchor of every catalogued code", async () => {
    const problem = await call(gateway.url, '/tokens');
    expectProblem(problem, 401, 'missing_api_key');
    expect(problem.json.type).toBe(`${PUBLIC_BASE_URL}/docs/errors#missing_api_key`);
    const errors = await call(gateway.url, new URL(String(problem.json.type)).pathname);
    expect(errors.status).toBe(200);
    const anchors = new Set([...errors.text.matchAll(/ id="([a-z0-9_]+)"/g)].map((match) => match[1]));
    const missing = [...ERROR_CATALOGUE.keys()].filter((code) => !anchors.has(code));
    expect(missing).toEqual([]);
    expect(anchors.has('missing_api_key')).toBe(true);
  });
});

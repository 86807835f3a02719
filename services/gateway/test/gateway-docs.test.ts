import { MemoryDocumentStore } from '@vaultline/store';
import { ERROR_CATALOGUE, invalidExamples } from '@vaultline/contracts';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { PUBLIC_BASE_URL, call, expectProblem } from './support/http-call';

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

  it('when / is called without a key, then it answers a JSON index linking the reference, both documents, the guides and health', async () => {
    const index = await call(gateway.url, '/');
    expect(index.status).toBe(200);
    expect(index.json.links).toMatchObject({
      docs: `${PUBLIC_BASE_URL}/docs`,
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
    const scripts = [...html.text.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/docs/assets/redoc.standalone.js', '/docs/assets/reference.js']);
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

  it('when the guides are opened, then they link the reference and hold the quick start, every processor\'s test cards, the lifecycle, webhooks, errors, idempotency, the test clock and test and live', async () => {
    const guides = await call(gateway.url, '/docs/guides');
    expect(guides.status).toBe(200);
    for (const id of ['quick-start', 'test-cards', 'payment-lifecycle', 'webhooks', 'errors', 'idempotency', 'test-clock', 'test-and-live']) {
      expect({ id, present: guides.text.includes(`id="${id}"`) }).toEqual({ id, present: true });
    }
    for (const card of ['4000 0000 0000 0002', '4000 0000 0000 0259', '4000 0000 0000 0267', '4000 0000 0000 0119', '4111 1111 1111 1111', '4242 4242 4242 4242']) expect(guides.text).toContain(card);
    expect(guides.text).toContain('href="/docs"');
    expect(guides.text).toContain(`${PUBLIC_BASE_URL}/payments/one-off`);
    expect(guides.text).toContain('payment.captured');
    expect(guides.text).not.toContain('<script');
    expect(guides.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('when a problem is answered, then its type is this gateway\'s /docs/errors#{code}, and that page has the anchor of every catalogued code', async () => {
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

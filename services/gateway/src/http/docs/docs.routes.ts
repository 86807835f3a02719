import express from 'express';
import type { Request, Response } from 'express';
import { buildOpenApiDocument, type OpenApiAudience } from '@vaultline/contracts';
import { NotFoundError } from '@vaultline/core';
import { CompressibleBody, sendCompressed } from '../compressed-body';
import { loadDocsAssets } from './docs-assets';
import { referencePage } from './reference-page';
import { guidesPage } from './guides-page';
import { errorsPage } from './errors-page';

/**
 * The static pages allow nothing but our stylesheet. The reference runs Redoc, which needs its own script
 * (served from here), inline styles (it styles its components at run time) and a worker from a blob: URL
 * (its search index); it fetches the document from here too.
 */
const STATIC_PAGE_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The guides run one script of ours: the copy buttons beside test cards and samples. */
const GUIDES_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Pages and documents are checked each time (304 while unchanged); assets named by their content's version are kept a year. */
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REFERENCE_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * What the gateway answers without a key: the index at `/`, the two OpenAPI documents, the reference
 * (/docs for merchants, /docs/admin for operators), the guides, the error reference (one anchor per code,
 * the target of every problem's `type`), and an empty favicon so a browser's automatic request is not a 401.
 */
export function docsRoutes(publicBaseUrl: string): express.Router {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const json = 'application/json; charset=utf-8';
  const html = 'text/html; charset=utf-8';
  const documents: Record<OpenApiAudience, () => CompressibleBody> = {
    merchant: memo(
      () => new CompressibleBody(Buffer.from(JSON.stringify(buildOpenApiDocument({ serverUrl: base, audience: 'merchant', codeSamples: true }))), json),
    ),
    admin: memo(() => new CompressibleBody(Buffer.from(JSON.stringify(buildOpenApiDocument({ serverUrl: base, audience: 'admin', codeSamples: true }))), json)),
  };
  const assets = memo(() => Object.fromEntries(Object.entries(loadDocsAssets()).map(([name, asset]) => [name, new CompressibleBody(asset.body, asset.type)])));
  /** An asset's address with its content's version: a new bundle is a new address, so browsers may keep each one a year. */
  const assetUrl = (name: string) => `/docs/assets/${name}?v=${assets()[name]!.version}`;
  const page = (text: () => string) => memo(() => new CompressibleBody(Buffer.from(text()), html));
  const pages = {
    reference: page(() => referencePage({ title: 'API reference', specUrl: '/openapi.json', section: 'reference', assetUrl })),
    admin: page(() => referencePage({ title: 'Admin API reference', specUrl: '/admin/openapi.json', section: 'admin', assetUrl })),
    guides: page(() => guidesPage(base, assetUrl)),
    errors: page(() => errorsPage()),
  };
  const index = {
    name: 'Vaultline',
    description: 'Card-data vault, forwarding proxy and payment orchestration. Every API request carries X-API-Key.',
    links: {
      dashboard: `${base}/dashboard/`,
      docs: `${base}/docs`,
      quick_start: `${base}/docs/guides#quick-start`,
      guides: `${base}/docs/guides`,
      errors: `${base}/docs/errors`,
      openapi: `${base}/openapi.json`,
      admin_docs: `${base}/docs/admin`,
      admin_openapi: `${base}/admin/openapi.json`,
      health: `${base}/health`,
      ready: `${base}/ready`,
    },
  };

  const htmlPage = (policy: string, item: () => CompressibleBody) => async (req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    await sendCompressed(req, res, item(), REVALIDATE);
  };
  const router = express.Router({ strict: true });
  router.get('/', (_req, res) => {
    res.json(index);
  });
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.status(204).end();
  });
  router.get('/openapi.json', (req, res) => sendCompressed(req, res, documents.merchant(), REVALIDATE));
  router.get('/admin/openapi.json', (req, res) => sendCompressed(req, res, documents.admin(), REVALIDATE));
  router.get(['/docs', '/docs/'], htmlPage(REFERENCE_PAGE_POLICY, pages.reference));
  router.get('/docs/admin', htmlPage(REFERENCE_PAGE_POLICY, pages.admin));
  router.get('/docs/guides', htmlPage(GUIDES_PAGE_POLICY, pages.guides));
  router.get('/docs/errors', htmlPage(STATIC_PAGE_POLICY, pages.errors));
  router.get('/docs/assets/:name', async (req, res) => {
    const asset = assets()[String(req.params.name)];
    if (!asset) throw new NotFoundError('asset');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Kept a year when asked for by its current version (the pages' addresses); otherwise checked each time.
    await sendCompressed(req, res, asset, req.query.v === asset.version ? IMMUTABLE : REVALIDATE);
  });
  return router;
}

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

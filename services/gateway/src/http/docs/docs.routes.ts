import express from 'express';
import type { Request, Response } from 'express';
import { buildOpenApiDocument, type OpenApiAudience } from '@vaultline/contracts';
import { NotFoundError } from '@vaultline/core';
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
const REFERENCE_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * What the gateway answers without a key: the index at `/`, the two OpenAPI documents, the reference
 * (/docs for merchants, /docs/admin for operators), the guides, the error reference (one anchor per code,
 * the target of every problem's `type`), and an empty favicon so a browser's automatic request is not a 401.
 */
export function docsRoutes(publicBaseUrl: string): express.Router {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const documents: Record<OpenApiAudience, () => string> = {
    merchant: memo(() => JSON.stringify(buildOpenApiDocument({ serverUrl: base, audience: 'merchant' }))),
    admin: memo(() => JSON.stringify(buildOpenApiDocument({ serverUrl: base, audience: 'admin' }))),
  };
  const pages = {
    reference: memo(() => referencePage({ title: 'API reference', specUrl: '/openapi.json', section: 'reference' })),
    admin: memo(() => referencePage({ title: 'Admin API reference', specUrl: '/admin/openapi.json', section: 'admin' })),
    guides: memo(() => guidesPage(base)),
    errors: memo(() => errorsPage()),
  };
  const assets = memo(loadDocsAssets);
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

  const html = (policy: string, page: () => string) => (_req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('html').send(page());
  };
  const router = express.Router({ strict: true });
  router.get('/', (_req, res) => {
    res.json(index);
  });
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.status(204).end();
  });
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(documents.merchant());
  });
  router.get('/admin/openapi.json', (_req, res) => {
    res.type('application/json').send(documents.admin());
  });
  router.get(['/docs', '/docs/'], html(REFERENCE_PAGE_POLICY, pages.reference));
  router.get('/docs/admin', html(REFERENCE_PAGE_POLICY, pages.admin));
  router.get('/docs/guides', html(STATIC_PAGE_POLICY, pages.guides));
  router.get('/docs/errors', html(STATIC_PAGE_POLICY, pages.errors));
  router.get('/docs/assets/:name', (req, res) => {
    const asset = assets()[String(req.params.name)];
    if (!asset) throw new NotFoundError('asset');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type(asset.type).send(asset.body);
  });
  return router;
}

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

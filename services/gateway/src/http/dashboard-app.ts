import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { RouteNotFoundError, setMetricsRoute } from '@vaultline/http';

/**
 * The dashboard's policy: its own scripts, styles, images (and data: images), API calls to its own
 * origin; never framed, no <base>, forms only to itself. No inline script or style element: the built
 * app loads everything from files (a style set from script through the DOM is not inline markup).
 */
export const DASHBOARD_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Vite writes content-hashed bundles under assets/: a new build has new names, so they are kept a year. */
const HASHED_ASSETS = /^\/assets\//;

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>This gateway serves the dashboard from DASHBOARD_DIST_DIR, which holds no index.html. <code>pnpm install</code> and
<code>pnpm start</code> build it into packages/dashboard/dist when it is missing (so does <code>pnpm build</code>); or point
DASHBOARD_DIST_DIR at a built copy.</p></body></html>
`;

/**
 * The built dashboard (a single-page app) at /dashboard and below: its files as they are, and
 * index.html for every other path without a file extension (the app's own routes). index.html is
 * never cached (it names the current bundles); the hashed bundles are cached for a year. Without a
 * build the answer is 503 with a page saying how to build it, checked on each request so a build made
 * after the start is served at once.
 */
export function dashboardApp({ dir }: { dir: string }): express.RequestHandler {
  const index = join(dir, 'index.html');
  const files = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders: (res, _path) => {
      const path = (res.req as Request).path;
      res.setHeader('Cache-Control', HASHED_ASSETS.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const sendIndex = (res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.sendFile(index, { dotfiles: 'deny', lastModified: false, etag: false, cacheControl: false });
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    setMetricsRoute(res, '/dashboard*');
    securityHeaders(res);
    if (!existsSync(index)) {
      res.status(503).setHeader('Cache-Control', 'no-store');
      res.type('html').send(NOT_BUILT);
      return;
    }
    if (req.path === '/' || req.path === '/index.html') return sendIndex(res);
    files(req, res, (error?: unknown) => {
      if (error) return next(error);
      // A missing file (a name with an extension) is a 404; any other path is one of the app's pages.
      if (/\.[A-Za-z0-9]+$/.test(req.path)) return next(new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? ''));
      sendIndex(res);
    });
  };
}

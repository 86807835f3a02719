import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { RouteNotFoundError, setMetricsRoute } from '@vaultline/http';
import { CompressibleBody, sendCompressed } from './compressed-body';

/**
 * The dashboard's policy: its own scripts, styles, images (and data: images), API calls to its own
 * origin; never framed, no <base>, forms only to itself. No inline script or style element: the built
 * app loads everything from files (a style set from script through the DOM is not inline markup).
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

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

/** What the build writes, by extension; text is compressed, images are sent as they are. */
const TYPES: Record<string, { type: string; compressible: boolean }> = {
  '.js': { type: 'text/javascript; charset=utf-8', compressible: true },
  '.css': { type: 'text/css; charset=utf-8', compressible: true },
  '.map': { type: 'application/json; charset=utf-8', compressible: true },
  '.json': { type: 'application/json; charset=utf-8', compressible: true },
  '.html': { type: 'text/html; charset=utf-8', compressible: true },
  '.svg': { type: 'image/svg+xml', compressible: true },
  '.txt': { type: 'text/plain; charset=utf-8', compressible: true },
  '.png': { type: 'image/png', compressible: false },
  '.ico': { type: 'image/x-icon', compressible: false },
  '.woff2': { type: 'font/woff2', compressible: false },
};

/**
 * The dashboard's files, read and compressed once each (keyed by path, size and modification time, so a
 * rebuild is served at once): the gateway answers them brotli or gzip with an ETag (304 when unchanged).
 * A path that leaves the directory, names a dot-file or has no known type is not a file here.
 */
function dashboardFiles(dir: string) {
  const root = resolve(dir);
  const cache = new Map<string, { size: number; mtimeMs: number; item: CompressibleBody }>();
  return async (requestPath: string): Promise<CompressibleBody | null> => {
    let relative: string;
    try {
      relative = decodeURIComponent(requestPath);
    } catch {
      return null;
    }
    const file = resolve(root, `.${relative}`);
    const kind = TYPES[extname(file).toLowerCase()];
    if (
      !kind ||
      !file.startsWith(root + sep) ||
      file
        .slice(root.length)
        .split(sep)
        .some((part) => part.startsWith('.'))
    )
      return null;
    const found = await stat(file).catch(() => null);
    if (!found?.isFile()) return null;
    const cached = cache.get(file);
    if (cached && cached.size === found.size && cached.mtimeMs === found.mtimeMs) return cached.item;
    const item = new CompressibleBody(await readFile(file), kind.type, kind.compressible);
    cache.set(file, { size: found.size, mtimeMs: found.mtimeMs, item });
    return item;
  };
}

/**
 * The built dashboard (a single-page app) at /dashboard and below: its files (compressed, with ETags), and
 * index.html for every other path without a file extension (the app's own routes). index.html is never
 * cached (it names the current bundles); the hashed bundles are cached for a year, other files revalidated.
 * Without a build the answer is 503 with a page saying how to build it, checked on each request so a build
 * made after the start is served at once.
 */
export function dashboardApp({ dir }: { dir: string }): express.RequestHandler {
  const index = join(dir, 'index.html');
  const fileAt = dashboardFiles(dir);

  const sendIndex = async (req: Request, res: Response) => {
    const page = await fileAt('/index.html');
    if (!page) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
    await sendCompressed(req, res, page, 'no-store');
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
    const serve = async () => {
      if (req.path === '/' || req.path === '/index.html') return sendIndex(req, res);
      const file = await fileAt(req.path);
      if (file) return sendCompressed(req, res, file, HASHED_ASSETS.test(req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A missing file (a name with an extension) is a 404; any other path is one of the app's pages.
      if (/\.[A-Za-z0-9]+$/.test(req.path)) throw new RouteNotFoundError(req.method, req.originalUrl.split('?')[0] ?? '');
      return sendIndex(req, res);
    };
    serve().catch(next);
  };
}

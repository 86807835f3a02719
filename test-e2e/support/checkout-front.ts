import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { PUBLIC, type VaultHarness } from '../../services/vault/test/vault-harness';

/**
 * A gateway-like front for the vault alone: public paths are proxied with an internal JWT
 * (scope public, merchant __public__) and X-Forwarded-For; /shop/* plays the merchant's site.
 */
export async function startFront(
  vault: VaultHarness,
  shopPage: (vaultOrigin: string, sessionId: string) => string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://front');
    if (url.pathname.startsWith('/shop/')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(url.pathname === '/shop/pay' ? shopPage(String(url.searchParams.get('vault')), String(url.searchParams.get('session'))) : '<h1>Thank you</h1>');
      return;
    }
    const token = vault.signerFor('gateway').sign('vault', { merchantId: PUBLIC.merchantId, scopes: PUBLIC.scopes });
    const target = new URL(vault.baseUrl);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}`, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  targets: string[];
}

/**
 * axe-core's findings on the page as it is now (WCAG 2.0/2.1 A and AA and axe's best practices). The
 * source goes in through the DevTools protocol: the page's CSP allows no inline script, rightly.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
       .then(function (r) { return r.violations.map(function (v) { return { id: v.id, impact: v.impact, targets: v.nodes.map(function (n) { return n.target.join(' '); }) }; }); })`,
  )) as AxeFinding[];
}

/** Draws a shop's logo in the browser and returns it as a PNG, as a merchant would upload one. */
export async function drawLogo(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 200, height: 200 }, deviceScaleFactor: 2 });
  await page.setContent(`<div id="logo" style="width:40px;height:40px;border-radius:10px;background:#6d3b1f;display:flex;align-items:center;justify-content:center;
    font:700 24px/1 Georgia,serif;color:#f6e7d2">A</div>`);
  const png = await page.locator('#logo').screenshot({ omitBackground: true });
  await page.close();
  return png;
}

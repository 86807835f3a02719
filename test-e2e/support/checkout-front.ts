import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { PUBLIC, type VaultHarness } from '../../services/vault/test/vault-harness';

/**
 * A gateway-like front for the vault alone: public paths are proxied with an internal JWT
 * (scope public, merchant __public__) and X-Forwarded-For; /shop/* plays the merchant's site.
 */
export async function startFront(vault: VaultHarness, shopPage: (vaultOrigin: string, sessionId: string) => string): Promise<{ url: string; close(): Promise<void> }> {
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
      { host: target.hostname, port: target.port, method: req.method, path: req.url,
        headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}`, 'x-forwarded-for': req.socket.remoteAddress ?? '' } },
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

/** Headless Chromium as the e2e suites run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

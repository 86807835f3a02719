// The first render of /docs (the API reference: Redoc's 1.1 MB bundle and the OpenAPI document) in Chromium,
// with the gateway's compression and caching (issue 36) against the same pages answered uncompressed (the
// baseline: the browser asks for Accept-Encoding: identity, so every byte comes as before).
//
//   pnpm bench docs            (or: pnpm exec tsx bench/docs.bench.ts [runs])
//
// First render: from navigation to the reference's first operation on screen, in a fresh browser context
// (empty cache), on loopback and over an emulated 10 Mbit/s link with 40 ms latency (a remote reader).
// Repeat visit: the same context opened again (what the caches keep). Bytes: what came over the wire.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { docsRoutes } from '../services/gateway/src/http/docs/docs.routes';

const RUNS = Number(process.argv[2] ?? 5);
const THROTTLED = { offline: false, latency: 40, downloadThroughput: (10 * 1024 * 1024) / 8, uploadThroughput: (5 * 1024 * 1024) / 8 };

interface Visit {
  ms: number;
  bytes: number;
}

async function serve(): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  const url = await new Promise<string>((resolve) => {
    const server: Server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    app.locals.server = server;
  });
  app.use(docsRoutes(url));
  return { url, close: () => new Promise((resolve) => (app.locals.server as Server).close(() => resolve())) };
}

/** One visit of /docs in the context: time to the first operation, and the bytes received (CDP's encoded lengths). */
async function visit(context: BrowserContext, url: string, options: { identity: boolean; throttled: boolean }): Promise<Visit> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (options.throttled) await cdp.send('Network.emulateNetworkConditions', THROTTLED);
  if (options.identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
  const started = performance.now();
  await page.goto(`${url}/docs`);
  await page.locator('[id="operation/createOneOffPayment"]').waitFor({ timeout: 120_000 });
  const ms = performance.now() - started;
  await page.close();
  return { ms, bytes };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const server = await serve();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    // Warm the server: each body compressed once (brotli included), as after the first visitor.
    const warm = await browser.newContext();
    await visit(warm, server.url, { identity: false, throttled: false });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await visit(warm, server.url, { identity: false, throttled: false });
    await warm.close();

    for (const throttled of [false, true]) {
      const results: Record<'baseline' | 'compressed', { first: Visit[]; repeat: Visit[] }> = {
        baseline: { first: [], repeat: [] },
        compressed: { first: [], repeat: [] },
      };
      for (let run = 0; run < RUNS; run++) {
        // Alternate which goes first, so a machine busier at one moment does not favour one side.
        const order: Array<'baseline' | 'compressed'> = run % 2 === 0 ? ['baseline', 'compressed'] : ['compressed', 'baseline'];
        for (const variant of order) {
          const context = await browser.newContext();
          const identity = variant === 'baseline';
          results[variant].first.push(await visit(context, server.url, { identity, throttled }));
          results[variant].repeat.push(await visit(context, server.url, { identity, throttled }));
          await context.close();
        }
      }
      const line = (variant: 'baseline' | 'compressed', kind: 'first' | 'repeat') =>
        `${Math.round(median(results[variant][kind].map((v) => v.ms)))} ms, ${Math.round(median(results[variant][kind].map((v) => v.bytes)) / 1024)} KB`;
      const ratio = (kind: 'first' | 'repeat') =>
        (median(results.baseline[kind].map((v) => v.ms)) / median(results.compressed[kind].map((v) => v.ms))).toFixed(2);
      console.log(`\n/docs first render, ${throttled ? 'over 10 Mbit/s with 40 ms latency' : 'on loopback'} (median of ${RUNS}):`);
      console.log(`  first visit   baseline (identity) ${line('baseline', 'first')}   compressed ${line('compressed', 'first')}   ratio ${ratio('first')}×`);
      console.log(`  repeat visit  baseline (identity) ${line('baseline', 'repeat')}   compressed ${line('compressed', 'repeat')}   ratio ${ratio('repeat')}×`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

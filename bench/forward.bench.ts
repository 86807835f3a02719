// Forwarding throughput and added latency: the same stand-in destination called directly and through
// POST /forward (gateway → forwarder → vault detokenize → destination), in the same run.
// Targets: added p50 ≤ 2 ms; forward throughput ≥ 50 % of the direct calls. The added p50 is measured at a
// steady rate below capacity (an evenly paced open-loop load); under saturation it is mostly queueing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as undiciRequest } from 'undici';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { runPacedLoad } from './support/paced-load';
import { autocannon } from './support/autocannon';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Added latency is a per-request figure: measured at a steady rate well below capacity, not in a queue. */
const PACED_RATE = Number(process.env.BENCH_FORWARD_PACED_RATE ?? 100);
/**
 * A second stand-in answers after about this long (uniformly 0.5–1.5×), as a PSP does: Adyen and
 * Checkout.com take 100s of ms. The spread keeps the closed-loop connections from moving in lockstep.
 */
const PSP_LATENCY_MS = Number(process.env.BENCH_FORWARD_PSP_LATENCY_MS ?? 50);
const PSP_CONNECTIONS = Number(process.env.BENCH_FORWARD_PSP_CONNECTIONS ?? 10);

/** A stand-in destination shaped like an Adyen /payments answer, after about `delayMs`. */
async function startDestination(delayMs: number): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.end('{"resultCode":"Authorised","pspReference":"PSP1"}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs * (0.5 + Math.random()));
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v69/payments`, close: () => server.close() };
}

/**
 * The least any forwarder can do: a node:http server that passes each request to the destination with
 * undici and pipes the answer back, with no checks, no card data and no record. It bounds what a
 * forwarding service can reach relative to calling the destination directly on the same machine.
 */
async function startBareProxy(destinationUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const dispatcher = new Agent({ connections: 256 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      undiciRequest(destinationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks), dispatcher })
        .then(async (answer) => {
          const text = await answer.body.text();
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
          res.end(text);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/forward`,
    close: async () => {
      server.close();
      await dispatcher.close();
    },
  };
}

async function main(): Promise<void> {
  const destination = await startDestination(0);
  const destinationUrl = destination.url;
  const psp = await startDestination(PSP_LATENCY_MS);

  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-forward-'));
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: { FORWARD_EXTRA_DESTINATIONS: `${destinationUrl},${psp.url}`, FORWARD_HTTPS_ONLY: 'false', LOG_LEVEL: 'silent', ...BENCH_RATE_LIMIT_ENV },
  });
  announceBenchRateLimit();
  try {
    const created = await fetch(`${system.baseUrl}/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey },
      body: JSON.stringify({ card: { number: '4111111111111111', exp_month: 3, exp_year: 2030, cvc: '737', name: 'Bench' } }),
    });
    const token = (await created.json()) as { id: string };
    if (created.status !== 200 && created.status !== 201) throw new Error(`token creation answered ${created.status}`);

    const body = JSON.stringify({
      amount: { currency: 'EUR', value: 1000 },
      reference: 'bench',
      paymentMethod: {
        type: 'scheme',
        number: '{{ account_number }}',
        expiryMonth: '{{ expiration_month }}',
        expiryYear: '{{ expiration_year }}',
        cvc: '{{ security_code }}',
      },
      merchantAccount: 'Bench',
    });
    const check = await fetch(`${system.baseUrl}/forward`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': system.bootstrapApiKey,
        'x-service-token': token.id,
        'x-destination-url': destinationUrl,
        'x-api-key-name': 'X-API-Key',
        'x-api-key-value': 'k',
      },
      body,
    });
    if (check.status !== 200) throw new Error(`forward answered ${check.status}: ${await check.text()}`);

    const forwardHeaders = {
      'content-type': 'application/json',
      'x-api-key': system.bootstrapApiKey,
      'x-service-token': token.id,
      'x-destination-url': destinationUrl,
      'x-api-key-name': 'X-API-Key',
      'x-api-key-value': 'k',
    };
    const run = (url: string, headers: Record<string, string>, connections = CONNECTIONS) =>
      autocannon({ url, method: 'POST', headers, body, connections, duration: DURATION_S, workers: 1 });
    await run(destinationUrl, { 'content-type': 'application/json' }); // warm-up of the baseline
    const direct = await run(destinationUrl, { 'content-type': 'application/json' });
    const bareProxy = await startBareProxy(destinationUrl);
    const proxied = await run(bareProxy.url, { 'content-type': 'application/json' });
    await bareProxy.close();
    const forwarded = await run(`${system.baseUrl}/forward`, forwardHeaders);
    if (forwarded.non2xx > 0 || forwarded.errors > 0) console.log(`warning: ${forwarded.non2xx} non-2xx and ${forwarded.errors} errors during the forward run`);
    const paced = (url: string, headers: Record<string, string>) =>
      runPacedLoad({ url, method: 'POST', headers, body, ratePerSecond: PACED_RATE, durationSeconds: DURATION_S });
    const directPaced = await paced(destinationUrl, { 'content-type': 'application/json' });
    const forwardedPaced = await paced(`${system.baseUrl}/forward`, forwardHeaders);
    if (forwardedPaced.failed > 0) console.log(`warning: ${forwardedPaced.failed} failed requests during the paced forward run`);

    const ratio = forwarded.requests.average / direct.requests.average;
    console.log(`connections ${CONNECTIONS}, ${DURATION_S} s each`);
    console.log(`direct    : ${direct.requests.average.toFixed(0)} req/s, p50 ${direct.latency.p50} ms, p99 ${direct.latency.p99} ms`);
    console.log(`forwarded : ${forwarded.requests.average.toFixed(0)} req/s, p50 ${forwarded.latency.p50} ms, p99 ${forwarded.latency.p99} ms`);
    console.log(
      `bare proxy: ${proxied.requests.average.toFixed(0)} req/s (${((proxied.requests.average / direct.requests.average) * 100).toFixed(1)} % of direct): node:http + undici passing bytes through, no logic — the most any forwarder can reach here`,
    );
    console.log(
      `throughput ratio forwarded/direct: ${(ratio * 100).toFixed(1)} % (target ≥ 50 %); forwarded/bare proxy: ${((forwarded.requests.average / proxied.requests.average) * 100).toFixed(1)} %`,
    );
    console.log(
      `at ${PACED_RATE} req/s evenly paced (open loop): direct p50 ${directPaced.p50} ms, p99 ${directPaced.p99} ms; forwarded p50 ${forwardedPaced.p50} ms, p99 ${forwardedPaced.p99} ms`,
    );
    console.log(
      `added p50 : ${(forwardedPaced.p50 - directPaced.p50).toFixed(2)} ms at ${PACED_RATE} req/s (target ≤ 2 ms); under saturation (queueing included): ${(forwarded.latency.p50 - direct.latency.p50).toFixed(2)} ms`,
    );
    // Single-request view without queueing: sequential calls, added time as the forwarder reports it.
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${system.baseUrl}/forward`, {
        method: 'POST',
        headers: forwardHeaders,
        body,
      });
      await r.arrayBuffer();
      samples.push(Number(r.headers.get('x-vaultline-added-ms')));
    }
    samples.sort((a, b) => a - b);
    console.log(`forwarder's own added time (sequential, header X-Vaultline-Added-Ms): p50 ${samples[100]?.toFixed(2)} ms, p99 ${samples[197]?.toFixed(2)} ms`);

    // The same comparison against a destination that takes as long as a PSP: what a merchant sees.
    const pspDirect = await run(psp.url, { 'content-type': 'application/json' }, PSP_CONNECTIONS);
    const pspForwarded = await run(`${system.baseUrl}/forward`, { ...forwardHeaders, 'x-destination-url': psp.url }, PSP_CONNECTIONS);
    if (pspForwarded.non2xx > 0 || pspForwarded.errors > 0)
      console.log(`warning: ${pspForwarded.non2xx} non-2xx and ${pspForwarded.errors} errors during the PSP-latency forward run`);
    console.log(
      `stand-in answering after ${PSP_LATENCY_MS / 2}–${PSP_LATENCY_MS * 1.5} ms, ${PSP_CONNECTIONS} connections: direct ${pspDirect.requests.average.toFixed(0)} req/s p50 ${pspDirect.latency.p50} ms; ` +
        `forwarded ${pspForwarded.requests.average.toFixed(0)} req/s p50 ${pspForwarded.latency.p50} ms; ratio ${((pspForwarded.requests.average / pspDirect.requests.average) * 100).toFixed(1)} %`,
    );
  } finally {
    await system.stop();
    destination.close();
    psp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

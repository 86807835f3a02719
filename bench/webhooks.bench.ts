// Webhook delivery in the embedded profile (all services in one process, SQLite store and bus):
//  1. throughput: 100 endpoints of one merchant, a burst of events fanning out to all of them;
//     deliveries/s beside direct POSTs to the same receiver at the same concurrency (baseline);
//  2. latency: 200 events/s for a few seconds, each to one endpoint (the other 100 stay registered);
//     p50/p99 from bus publish to the receiver's arrival, beside direct POSTs at the same rate.
// Targets: ≥ 1,000 deliveries/s; p99 < 100 ms.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventMessage } from '../libs/bus/src';
import { paymentAuthorizedV1, paymentCapturedV1 } from '../libs/contracts/src';
import type { DocumentStore } from '../libs/store/src';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';

const ENDPOINTS = 100;
const BURST_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 50);
const RATE_PER_S = 200;
const LATENCY_SECONDS = Number(process.env.BENCH_DURATION_S ?? 5);

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const fmt = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

function payment(paymentId: string) {
  return {
    payment_id: paymentId,
    status: 'captured' as const,
    amount: { requested: 1000, authorized: 1000, captured: 1000 },
    currency_code: 'EUR',
    use_case: 'ONE_OFF',
    reference: 'bench',
    credential_id: null,
    initial_payment_id: null,
    flow: 'simulator',
    failure_reason: null,
    masked_account_number: '411111******1111',
  };
}

async function main(): Promise<void> {
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      if (req.url === '/latency') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { payment_id: string } };
        arrivals.set(body.data.payment_id, performance.now());
      }
      res.statusCode = 204;
      res.end();
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-webhooks-'));
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'silent',
      // The notifier on the main thread (the default gives it a thread of its own): this bench publishes into
      // its bus and reads its store, and measures its delivery work on the one event loop.
      EMBEDDED_SERVICE_THREADS: 'importer',
      ...BENCH_RATE_LIMIT_ENV,
    },
  });
  announceBenchRateLimit();
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${system.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { id: string };
    };
    for (let i = 0; i < ENDPOINTS; i++) await api('POST', '/webhook-endpoints', { url: `${receiverUrl}/burst/${i}`, events: ['payment.captured'] });
    const latencyEndpoint = await api('POST', '/webhook-endpoints', { url: `${receiverUrl}/latency`, events: ['payment.authorized'] });
    // The bootstrap merchant's id, read from the notifier's own store (benchmark only; the notifier
    // runs on the main thread unless EMBEDDED_SERVICE_THREADS names it).
    const notifier = system.services.notifier;
    if (!notifier) throw new Error('the webhooks bench reads the notifier store: keep the notifier on the main thread');
    const stored = await notifier.runtime.store.collection('webhook_endpoints').listAcrossMerchants({}, { limit: 1000 });
    // The endpoints' merchant and mode (the bootstrap key's): events of that scope reach them.
    const endpoint = stored.items.find((e) => e.id === latencyEndpoint.id);
    if (!endpoint?.mode) throw new Error('could not find the merchant of the endpoints');
    const scope = { merchantId: endpoint.merchant_id, mode: endpoint.mode };

    // Warm-up: connections, statements, JIT.
    await system.bus.publish([eventMessage(paymentAuthorizedV1, { scope, data: { ...payment('warm'), status: 'authorized' } })]);
    while (!arrivals.has('warm')) await new Promise((r) => setTimeout(r, 10));

    // 1. Throughput.
    const expected = BURST_EVENTS * ENDPOINTS;
    const before = received;
    const started = performance.now();
    await system.bus.publish(Array.from({ length: BURST_EVENTS }, (_, i) => eventMessage(paymentCapturedV1, { scope, data: payment(`burst_${i}`) })));
    while (received - before < expected) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - started) / 1000;
    const deliveriesPerS = expected / seconds;

    const direct = await directPosts(`${receiverUrl}/direct`, expected, 256);
    console.log(`throughput: ${expected} deliveries to ${ENDPOINTS} endpoints in ${seconds.toFixed(2)} s = ${fmt(deliveriesPerS)} deliveries/s`);
    console.log(
      `  baseline (direct POSTs to the same receiver, 256 concurrent): ${fmt(direct)} req/s; ratio ${(deliveriesPerS / direct).toFixed(2)}; target ≥ 1000/s: ${deliveriesPerS >= 1000 ? 'met' : 'NOT met'}`,
    );

    // 2. Latency at 200 events/s.
    const publishedAt = new Map<string, number>();
    const total = RATE_PER_S * LATENCY_SECONDS;
    const t0 = performance.now();
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = `lat_${i}`;
      publishedAt.set(id, performance.now());
      void system.bus.publish([eventMessage(paymentAuthorizedV1, { scope, data: { ...payment(id), status: 'authorized' } })]);
    }
    const deadline = performance.now() + 30_000;
    while ([...publishedAt.keys()].some((id) => !arrivals.has(id)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const latencies = [...publishedAt].filter(([id]) => arrivals.has(id)).map(([id, at]) => arrivals.get(id)! - at);
    const directLatencies = await directLatency(`${receiverUrl}/direct`, total, RATE_PER_S);
    const p99 = percentile(latencies, 99);
    if (process.env.BENCH_WEBHOOK_BREAKDOWN) await breakdown(notifier.runtime.store);
    console.log(
      `latency at ${RATE_PER_S} events/s (${latencies.length}/${total} delivered): p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(p99)} ms, max ${fmt(Math.max(...latencies))} ms`,
    );
    console.log(
      `  baseline (direct POST round trip at the same rate): p50 ${fmt(percentile(directLatencies, 50))} ms, p99 ${fmt(percentile(directLatencies, 99))} ms; target p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await system.stop();
    receiver.closeAllConnections();
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where the time goes: bus → consumer (message created_at − event time), consumer → attempt start. */
async function breakdown(store: DocumentStore): Promise<void> {
  const page = await store
    .collection<{
      id: string;
      merchant_id: string;
      version: number;
      event_type: string;
      created_at: string;
      payload: string;
      attempts: { attempted_at: string }[];
    }>('webhook_messages')
    .listAcrossMerchants({ event_type: 'payment.authorized' }, { limit: 2000 });
  const consumer: number[] = [];
  const scheduling: number[] = [];
  for (const m of page.items) {
    const occurred = Date.parse((JSON.parse(m.payload) as { timestamp: string }).timestamp);
    consumer.push(Date.parse(m.created_at) - occurred);
    if (m.attempts[0]) scheduling.push(Date.parse(m.attempts[0].attempted_at) - Date.parse(m.created_at));
  }
  console.log(
    `  breakdown: bus→consumer p50 ${fmt(percentile(consumer, 50))} p99 ${fmt(percentile(consumer, 99))} ms; consumer→attempt p50 ${fmt(percentile(scheduling, 50))} p99 ${fmt(percentile(scheduling, 99))} ms`,
  );
}

async function directPosts(url: string, count: number, concurrency: number): Promise<number> {
  const body = JSON.stringify({ type: 'payment.captured', timestamp: new Date().toISOString(), data: payment('direct') });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function directLatency(url: string, count: number, ratePerS: number): Promise<number[]> {
  const body = JSON.stringify({ type: 'payment.authorized', timestamp: new Date().toISOString(), data: payment('direct') });
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = t0 + (i * 1000) / ratePerS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    pending.push(
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) => {
        await r.arrayBuffer();
        latencies.push(performance.now() - sent);
      }),
    );
  }
  await Promise.all(pending);
  return latencies;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

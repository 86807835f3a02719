// The worker half of the refunds run of payments.bench.ts (plain JavaScript: worker threads do not
// inherit tsx's loader). A closed loop of `concurrency` consumers, each refunding its own captured
// payments (disjoint shares, so no two refunds of one payment race): POST a partial refund (a fresh
// Idempotency-Key each, as the SDK sends), wait for the
// merchant's refund.succeeded webhook, the next; a payment whose refundable amount is spent (422) gives
// way to the consumer's next one. The webhook receiver lives here, off the measured event loop.
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { startOutcomeReceiver } from './webhook-outcomes.mjs';

const { baseUrl, apiKey, concurrency, warmupSeconds, durationSeconds, paymentIds, refundAmount } = workerData;
const pool = new Pool(baseUrl, { connections: Math.min(concurrency, 128), pipelining: 1 });
const REFUND = JSON.stringify({ amount: refundAmount, reason: 'requested_by_customer' });

const receiver = await startOutcomeReceiver((data) => data.id, 'refund');
const { outcomeOf } = receiver;
parentPort.postMessage({ type: 'receiver', url: receiver.url });
await new Promise((resolve) => parentPort.once('message', resolve)); // the endpoint is registered

const counts = { succeeded: 0, failed: 0, errors: 0, exhausted: 0 };
const latencies = [];
const started = performance.now();
const measureFrom = started + warmupSeconds * 1000;
const measureUntil = measureFrom + durationSeconds * 1000;
setTimeout(() => parentPort.postMessage({ type: 'window', phase: 'start' }), measureFrom - started);
setTimeout(() => parentPort.postMessage({ type: 'window', phase: 'end' }), measureUntil - started);
let firstError = null;

async function consumer(index) {
  const mine = paymentIds.filter((_, i) => i % concurrency === index);
  while (performance.now() < measureUntil) {
    const paymentId = mine[0];
    if (!paymentId) {
      counts.exhausted++;
      return;
    }
    try {
      const t0 = performance.now();
      const response = await pool.request({
        method: 'POST',
        path: `/payments/${paymentId}/refunds`,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': randomUUID() },
        body: REFUND,
      });
      const text = await response.body.text();
      if (response.statusCode === 422) {
        mine.shift(); // this payment's refundable amount is spent
        continue;
      }
      if (response.statusCode !== 201) throw new Error(`POST /payments/{id}/refunds answered ${response.statusCode}: ${text}`);
      const status = await outcomeOf(JSON.parse(text).id);
      const done = performance.now();
      if (done < measureFrom || done > measureUntil) continue;
      if (status === 'succeeded') {
        counts.succeeded++;
        latencies.push(done - t0);
      } else counts.failed++;
    } catch (error) {
      counts.errors++;
      firstError ??= String(error?.message ?? error);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, index) => consumer(index)));
await pool.close();
receiver.close();
latencies.sort((a, b) => a - b);
const at = (q) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(1));
parentPort.postMessage({ type: 'result', ...counts, firstError, perSecond: counts.succeeded / durationSeconds, p50: at(0.5), p99: at(0.99), max: at(1) });

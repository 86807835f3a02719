// The worker half of payments.bench.ts (plain JavaScript: worker threads do not inherit tsx's loader).
// A closed loop of `concurrency` consumers, each: create a one-off payment (with a fresh Idempotency-Key,
// as the SDK sends one on every POST), submit the card to its
// session, wait for the merchant's webhook telling the outcome; then the next payment. The webhook
// receiver lives here too, so neither the requests nor the receiving share the measured event loop.
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { startOutcomeReceiver } from './webhook-outcomes.mjs';

const { baseUrl, apiKey, concurrency, warmupSeconds, durationSeconds } = workerData;
const pool = new Pool(baseUrl, { connections: Math.min(concurrency, 128), pipelining: 1 });
const CARD = JSON.stringify({ card: { number: '4242424242424242', exp_month: '12', exp_year: '2034', cvc: '123', name: 'Bench Mark' } });
const PAYMENT = JSON.stringify({ amount: 1999, currency_code: 'EUR', reference: 'bench', source: { type: 'vaultline' } });

const receiver = await startOutcomeReceiver((data) => data.payment_id, 'payment');
const { outcomeOf } = receiver;
parentPort.postMessage({ type: 'receiver', url: receiver.url });
await new Promise((resolve) => parentPort.once('message', resolve)); // the endpoint is registered

async function call(method, path, body, headers) {
  const response = await pool.request({ method, path, headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await response.body.text();
  return { status: response.statusCode, text };
}

const counts = { captured: 0, failed: 0, errors: 0, sessionWaits: 0 };
const latencies = [];
const started = performance.now();
const measureFrom = started + warmupSeconds * 1000;
const measureUntil = measureFrom + durationSeconds * 1000;
// The parent measures its main thread's busy time over the same window.
setTimeout(() => parentPort.postMessage({ type: 'window', phase: 'start' }), measureFrom - started);
setTimeout(() => parentPort.postMessage({ type: 'window', phase: 'end' }), measureUntil - started);
let firstError = null;

async function onePayment() {
  const t0 = performance.now();
  const created = await call('POST', '/payments/one-off', PAYMENT, { 'x-api-key': apiKey, 'idempotency-key': randomUUID() });
  if (created.status !== 200) throw new Error(`POST /payments/one-off answered ${created.status}: ${created.text}`);
  const payment = JSON.parse(created.text);
  const outcome = outcomeOf(payment.id);
  // The session reaches the vault by event a moment after the payment is created; the hosted page
  // reads the session's status before it offers the form, and so does this consumer. The vault holds
  // a read of a session not arrived yet for up to a second, so a 404 here (read again) is rare.
  // (Posting the card to a session the vault does not know yet would count against the session's attempt limit.)
  const sessionId = payment.action_requirement.session_id;
  while ((await call('GET', `/sessions/${sessionId}/status`, null, {})).status === 404) {
    counts.sessionWaits++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const submitted = await call('POST', `/sessions/${sessionId}/card`, CARD, {});
  if (submitted.status !== 201) throw new Error(`POST /sessions/{id}/card answered ${submitted.status}: ${submitted.text}`);
  const status = await outcome;
  return { t0, ms: performance.now() - t0, status };
}

async function consumer() {
  while (performance.now() < measureUntil) {
    try {
      const { t0, ms, status } = await onePayment();
      const done = t0 + ms;
      if (done < measureFrom || done > measureUntil) continue; // completed during warm-up or after the window: not counted
      if (status === 'captured') {
        counts.captured++;
        latencies.push(ms);
      } else counts.failed++;
    } catch (error) {
      counts.errors++;
      firstError ??= String(error?.message ?? error);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, consumer));
await pool.close();
receiver.close();
latencies.sort((a, b) => a - b);
const at = (q) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(1));
parentPort.postMessage({
  type: 'result',
  ...counts,
  firstError,
  perSecond: counts.captured / durationSeconds,
  p50: at(0.5),
  p99: at(0.99),
  max: at(1),
});

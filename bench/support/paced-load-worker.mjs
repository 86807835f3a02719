// The worker half of paced-load.ts (plain JavaScript: worker threads do not inherit tsx's loader).
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

async function generate(options) {
  const target = new URL(options.url);
  const pool = new Pool(target.origin, { connections: 64, pipelining: 1 });
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const latencies = [];
  let failed = 0;
  const inFlight = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      pool
        .request({
          method: options.method,
          path: target.pathname + target.search,
          headers: options.idempotencyKeys ? { ...options.headers, 'idempotency-key': randomUUID() } : options.headers,
          body: options.body ?? null,
        })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode >= 200 && response.statusCode < 300) latencies.push(performance.now() - due);
          else failed++;
        })
        .catch(() => void failed++),
    );
  }
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(1));
  return { sent: total, ok: latencies.length, failed, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}

parentPort.postMessage(await generate(workerData));

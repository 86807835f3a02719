// An open-loop load generator: requests leave at evenly spaced instants (rate per second), each on
// its own schedule whether or not earlier ones have answered, and latency is counted from the instant
// a request was due — so a stalled server is charged for the queue it builds (no coordinated omission).
//
// autocannon's overallRate is not this: each connection sends its whole per-second quota back to back
// at the start of every second, so "200 req/s" over 10 connections is a burst of 200 requests once a
// second. Useful as a burst test, but not the latency at a steady 200 requests/s.
//
// Runs in a worker thread (paced-load-worker.mjs) so that the generator does not share the event loop
// of the system measured.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface PacedLoadOptions {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  ratePerSecond: number;
  durationSeconds: number;
  /** A fresh Idempotency-Key (a UUID) on every request, as the SDK sends one on every POST. */
  idempotencyKeys?: boolean;
}

export interface PacedLoadResult {
  sent: number;
  ok: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function runPacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'paced-load-worker.mjs'), { workerData: options });
    worker.once('message', (result: PacedLoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`paced load worker exited with ${code}`));
    });
  });
}

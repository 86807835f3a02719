// Automatic import in the embedded profile: 1,000 then 10,000 card payment methods from the provider_a
// simulator (platform → gateway /cde-import → vault → token.created → importer), duration, tokens/s and
// memory. Baseline in the same run: the same number of cards POSTed straight to /cde-import through
// the gateway with the same concurrency (the vault's own import capacity, no platform round trip).
// Targets: ≥ 500 tokens/s end to end; memory flat between 1,000 and 10,000.
//
// What runs where: the simulator stands in for a third-party platform on other machines, so it runs in
// a process of its own (services/importer/dev/provider-a-simulator.main.ts) and its HTTP server, its
// client side of the calls to /cde-import and its data stay off our event loop and out of our heap
// (it is stopped before the baseline runs). This process holds
// the whole embedded system (gateway, vault, importer, notifier, forwarder, payment orchestrator); the
// baseline's load comes from a worker thread. The machine's cores are still shared: the simulator's CPU
// time is printed beside ours, and ours as a share of the wall time (above 100 % with V8's and libuv's
// helper threads; a run where it is much lower than in the others waited for a core) and per card
// (steadier than the rate on a shared machine), with the machine's load, steal and idle time.
//
// Memory is this process's only: the main thread's heap plus the heaps of the service threads (the
// importer runs on one by default, EMBEDDED_SERVICE_THREADS). Peak heap and rss are sampled every 50 ms; the peak
// heap mostly says when V8 chose to collect, not what the import keeps. "Retained" is heapUsed right
// after a forced full gc (every BENCH_IMPORT_GC_SAMPLE_MS, default 5 s, and at the end of the job):
// what stays live. Memory flatness is judged on the retained heap (its largest sample, 10k against
// 1k); the forced gcs' own time is printed so that their cost to the rate can be seen.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { spawnProviderASimulator, type SimulatorProcessUsage } from '../services/importer/dev/provider-a-simulator.process';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';

const CONCURRENCY = Number(process.env.BENCH_IMPORT_CONCURRENCY ?? 16);
const GC_SAMPLE_MS = Number(process.env.BENCH_IMPORT_GC_SAMPLE_MS ?? 5_000);
const CARDS_PER_CUSTOMER = 5;
const PLATFORM_KEY = 'sk_test_bench';

interface Memory {
  peakHeapUsed: number;
  peakRss: number;
  /** heapUsed after a forced gc just before the job started; null without --expose-gc. */
  retainedAtStart: number | null;
  /** The largest heapUsed after a forced gc during the job and at its end. */
  retainedMax: number | null;
  forcedGcs: number;
  forcedGcMs: number;
}

/** Used heap of the threads the embedded system runs services on (the importer's, by default). */
type ThreadHeap = (options: { gc: boolean }) => Promise<number>;

/** heapUsed of this thread plus the service threads', after a forced full gc in each; null without --expose-gc. */
async function forcedGc(threadHeap: ThreadHeap): Promise<{ heapUsed: number; ms: number } | null> {
  if (!global.gc) return null;
  const started = performance.now();
  global.gc();
  const threads = await threadHeap({ gc: true });
  return { heapUsed: process.memoryUsage().heapUsed + threads, ms: performance.now() - started };
}

async function memorySampler(threadHeap: ThreadHeap): Promise<{ stop(): Promise<Memory> }> {
  const start = await forcedGc(threadHeap);
  const memory: Memory = {
    peakHeapUsed: 0,
    peakRss: 0,
    retainedAtStart: start?.heapUsed ?? null,
    retainedMax: start?.heapUsed ?? null,
    forcedGcs: 0,
    forcedGcMs: 0,
  };
  // The threads' heap is asked for asynchronously; peaks add the last answer to this thread's heap.
  let threadsUsed = await threadHeap({ gc: false });
  const take = () => {
    const m = process.memoryUsage();
    memory.peakHeapUsed = Math.max(memory.peakHeapUsed, m.heapUsed + threadsUsed);
    memory.peakRss = Math.max(memory.peakRss, m.rss);
  };
  const askThreads = () =>
    void threadHeap({ gc: false }).then(
      (used) => (threadsUsed = used),
      () => undefined,
    );
  const retained = async () => {
    take(); // the peak before the collection
    const after = await forcedGc(threadHeap);
    if (!after) return;
    memory.forcedGcs += 1;
    memory.forcedGcMs += after.ms;
    memory.retainedMax = Math.max(memory.retainedMax ?? 0, after.heapUsed);
  };
  const peaks = setInterval(take, 50);
  const threadPeaks = setInterval(askThreads, 250);
  const collections = global.gc && GC_SAMPLE_MS > 0 ? setInterval(() => void retained(), GC_SAMPLE_MS) : null;
  return {
    stop: async () => {
      clearInterval(peaks);
      clearInterval(threadPeaks);
      if (collections) clearInterval(collections);
      await retained();
      return memory;
    },
  };
}

/**
 * The baseline's load, from a worker thread so that the load generator does not share the event loop
 * of the system measured (as the simulator does not). autocannon ships no type declarations, and a
 * worker cannot be handed functions, so the worker is a few lines of plain JS.
 */
function directImport(options: { url: string; headers: Record<string, string>; amount: number }): Promise<{ rate: number; non2xx: number }> {
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    const autocannon = require(workerData.autocannon);
    let n = 0;
    autocannon({
      url: workerData.url, method: 'POST', connections: workerData.connections, amount: workerData.amount, headers: workerData.headers,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({
        metadata: { business_key: 'direct_' + n++ },
        card: { number: '4111111111111111', exp_month: '03', exp_year: '2030', cvc: '737', name: 'Bench Direct' },
      }) }) }],
    // Inside a worker thread autocannon answers with its raw per-worker result (totalCompletedRequests).
    }).then((r) => parentPort.postMessage({ total: r.totalCompletedRequests ?? r.requests.total, seconds: r.duration, non2xx: r.non2xx }), (e) => { throw e; });
  `;
  const workerData = { ...options, connections: CONCURRENCY, autocannon: createRequire(__filename).resolve('autocannon') };
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData });
    worker.once('message', (r: { total: number; seconds: number; non2xx: number }) => resolve({ rate: r.total / r.seconds, non2xx: r.non2xx }));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`baseline worker exited with ${code}`));
    });
  });
}

/** All cores' time counters (Linux /proc/stat, in ticks); null elsewhere. */
function machineTicks(): { total: number; idle: number; steal: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

function machineDuring(before: ReturnType<typeof machineTicks>): string {
  const after = machineTicks();
  const load = `load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;
  if (!before || !after || after.total === before.total) return load;
  const share = (ticks: number) => `${((ticks / (after.total - before.total)) * 100).toFixed(0)} %`;
  return `${load}; steal ${share(after.steal - before.steal)}, idle ${share(after.idle - before.idle)} of all cores`;
}

interface ImportFigures {
  seconds: number;
  imported: number;
  failed: number;
  memory: Memory;
  /** CPU time of this process (all services) during the job, in seconds. */
  ourCpuSeconds: number;
  simulator: SimulatorProcessUsage | null;
  simulatorPid: number;
  /** Load, steal and idle time of the machine during the job. */
  machine: string;
  direct: number | null;
}

async function importOnce(cards: number, measureBaseline: boolean, serviceThreads?: string): Promise<ImportFigures> {
  const simulator = await spawnProviderASimulator({
    apiKey: PLATFORM_KEY,
    customers: cards / CARDS_PER_CUSTOMER,
    cardsPerCustomer: CARDS_PER_CUSTOMER,
    allowHttpLoopbackDestinations: true,
  });
  let simulatorUsage: SimulatorProcessUsage | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-import-'));
  try {
    // A fresh embedded system per account: PROVIDER_A_BASE_URL is read once, at start.
    const system = await startEmbedded({
      dataDir,
      port: 0,
      env: {
        LOG_LEVEL: 'silent',
        ...BENCH_RATE_LIMIT_ENV,
        IMPORTER_ALLOW_PRIVATE_PROVIDER: 'true',
        IMPORTER_CONCURRENCY: String(CONCURRENCY),
        PROVIDER_A_BASE_URL: simulator.baseUrl,
        ...(serviceThreads ? { EMBEDDED_SERVICE_THREADS: serviceThreads } : {}),
      },
    });
    const headers = { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey };
    try {
      // The platform's onboarding: forwarding enabled to the system's /cde-import (the embedded profile's
      // public base URL is http://localhost:<gateway port>), as the real platform requires.
      await simulator.enableForwardingTo(`http://localhost:${new URL(system.baseUrl).port}/cde-import`);
      const sampler = await memorySampler((options) => system.threadHeapUsed(options));
      const cpuAtStart = process.cpuUsage();
      const machineAtStart = machineTicks();
      const started = performance.now();
      const created = await fetch(`${system.baseUrl}/tokens/imports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } }),
      });
      if (created.status !== 201) throw new Error(`POST /tokens/imports answered ${created.status}: ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      let result: Omit<ImportFigures, 'simulator' | 'simulatorPid' | 'machine' | 'direct'> | null = null;
      while (!result) {
        const answer = await fetch(`${system.baseUrl}/tokens/imports/${id}`, { headers });
        const job = (await answer.json()) as { state: string; failure_reason: string | null; counts: { imported: number; updated: number; failed: number } };
        // fetch keeps a resource timing entry per request (up to 250): this client's, not the system's.
        performance.clearResourceTimings();
        if (job.state === 'failed') throw new Error(`import failed: ${job.failure_reason}`);
        if (job.state === 'finished') {
          const seconds = (performance.now() - started) / 1000;
          const cpu = process.cpuUsage(cpuAtStart);
          result = {
            seconds,
            imported: job.counts.imported + job.counts.updated,
            failed: job.counts.failed,
            memory: await sampler.stop(),
            ourCpuSeconds: (cpu.user + cpu.system) / 1e6,
          };
        } else {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const machine = machineDuring(machineAtStart);
      simulatorUsage = await simulator.stop();
      let direct: number | null = null;
      if (measureBaseline) {
        // Baseline: as many cards straight to /cde-import through the gateway, same concurrency.
        const run = await directImport({ url: `${system.baseUrl}/cde-import`, headers, amount: result.imported });
        if (run.non2xx > 0) console.log(`warning: ${run.non2xx} non-2xx answers in the baseline`);
        direct = run.rate;
      }
      return { ...result, simulator: simulatorUsage, simulatorPid: simulator.pid, machine, direct };
    } finally {
      await system.stop();
    }
  } finally {
    await simulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const rate = (r: { seconds: number; imported: number }) => r.imported / r.seconds;

function line(label: string, r: ImportFigures): string {
  // Outbound forwards beside the cards imported: each card went out once (no retries hidden in the rate).
  const sim = r.simulator
    ? `${((r.simulator.user_ms + r.simulator.system_ms) / 1000).toFixed(1)} s (${r.simulator.outbound_forwards} forwards sent out, ${r.simulator.idempotent_replays} replayed)`
    : 'n/a';
  return (
    `${label}: ${r.seconds.toFixed(1)} s, ${rate(r).toFixed(0)} tokens/s, failed ${r.failed}; ` +
    `retained heap after gc ${mb(r.memory.retainedAtStart)} at start, max ${mb(r.memory.retainedMax)}; peak heap ${mb(r.memory.peakHeapUsed)}, peak rss ${mb(r.memory.peakRss)}; ` +
    `cpu: this process ${r.ourCpuSeconds.toFixed(1)} s (${((r.ourCpuSeconds / r.seconds) * 100).toFixed(0)} % of the wall time, ${((r.ourCpuSeconds / r.imported) * 1000).toFixed(2)} ms per card), simulator ${sim}; ` +
    `forced gcs ${r.memory.forcedGcs} (${r.memory.forcedGcMs.toFixed(0)} ms)`
  );
}

const threadsNote = process.env.EMBEDDED_SERVICE_THREADS
  ? `EMBEDDED_SERVICE_THREADS=${process.env.EMBEDDED_SERVICE_THREADS}`
  : 'the importer on a worker thread of its own (the default)';

async function main(): Promise<void> {
  announceBenchRateLimit();
  const a = await importOnce(1_000, false);
  const b = await importOnce(10_000, true);
  console.log(
    `concurrency ${CONCURRENCY} forwarding requests; ${CARDS_PER_CUSTOMER} cards per customer; provider_a simulator in its own process (pid ${a.simulatorPid}, then ${b.simulatorPid}); ` +
      `gateway, vault, importer, notifier, forwarder and payment orchestrator in this process (pid ${process.pid}), ${threadsNote}; baseline load from a worker thread`,
  );
  console.log(line('import  1,000 ', a));
  console.log(line('import 10,000 ', b));
  console.log(`machine       : 1,000: ${a.machine}; 10,000: ${b.machine}`);
  console.log(`baseline      : direct POST /cde-import ${(b.direct ?? 0).toFixed(0)} tokens/s`);
  console.log(`ratio import/direct: ${((rate(b) / (b.direct ?? 1)) * 100).toFixed(1)} %`);
  const retained = a.memory.retainedMax !== null && b.memory.retainedMax !== null ? { a: a.memory.retainedMax, b: b.memory.retainedMax } : null;
  const flatness = retained
    ? `retained heap 10k/1k ${(retained.b / retained.a).toFixed(2)}× (${Math.round((retained.b - retained.a) / 9_000)} bytes per extra card)`
    : 'retained heap n/a (run with --expose-gc, as pnpm bench does)';
  console.log(
    `target ≥ 500 tokens/s: ${rate(b) >= 500 ? 'met' : 'NOT met'}; memory: ${flatness}; peak heap 10k/1k ${(b.memory.peakHeapUsed / a.memory.peakHeapUsed).toFixed(2)}×`,
  );
  // The same 10,000 with every service on the main thread (EMBEDDED_SERVICE_THREADS=none), for comparison.
  if (!process.env.EMBEDDED_SERVICE_THREADS) {
    const oneThread = await importOnce(10_000, false, 'none');
    console.log(line('import 10,000 with EMBEDDED_SERVICE_THREADS=none', oneThread));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

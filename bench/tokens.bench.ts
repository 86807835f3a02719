// POST /tokens through the gateway in the embedded profile, beside a bare express endpoint that only
// parses the same JSON, measured in the same run. Every POST carries a fresh Idempotency-Key, as the SDK
// sends one. Targets: ≥ 1,500 tokens/s; p99 < 20 ms at 200 req/s; the budgets of issue #33 (main thread per
// token, ratio to bare express: bench/support/budgets.ts) printed beside their figures.
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { runPacedLoad } from './support/paced-load';
import { autocannon, type CannonResult } from './support/autocannon';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';
import { BUDGETS, IDEMPOTENCY_KEY_PER_REQUEST, againstBudget } from './support/budgets';
import { perUnit, startMainThreadMeter } from './support/main-thread-meter';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
/** Baseline and tokens runs alternate this many times: the host's steal moves figures by ±30 % within a minute. */
const ROUNDS = Number(process.env.BENCH_TOKENS_ROUNDS ?? 3);
const THROUGHPUT_S = Math.max(2, Math.round(DURATION_S / 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const FIXED_RATE = 200;

const body = JSON.stringify({ card: { number: '4111 1111 1111 1111', exp_month: '03', exp_year: '2030', cvc: '737', name: 'Bench Mark' } });

async function main(): Promise<void> {
  const bare = express();
  bare.post('/tokens', express.json(), (req, res) => {
    res.status(201).json({ id: 'bare', received: typeof req.body === 'object' });
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => bareServer.once('listening', () => resolve()));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/tokens`;

  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-tokens-'));
  const system = await startEmbedded({ dataDir, port: 0, env: { LOG_LEVEL: 'silent', ...BENCH_RATE_LIMIT_ENV } });
  announceBenchRateLimit();
  try {
    const merchantHeaders = { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey };
    const headers = { ...merchantHeaders, ...IDEMPOTENCY_KEY_PER_REQUEST };
    const bareHeaders = { 'content-type': 'application/json', ...IDEMPOTENCY_KEY_PER_REQUEST };
    const check = await fetch(`${system.baseUrl}/tokens`, { method: 'POST', headers: { ...merchantHeaders, 'idempotency-key': crypto.randomUUID() }, body });
    if (check.status !== 201) throw new Error(`POST /tokens answered ${check.status}: ${await check.text()}`);
    const url = `${system.baseUrl}/tokens`;

    const run = (target: string, h: Record<string, string>, overallRate?: number, duration = DURATION_S) =>
      autocannon({
        url: target,
        method: 'POST',
        headers: h,
        body,
        connections: CONNECTIONS,
        duration,
        workers: 1,
        idReplacement: true,
        ...(overallRate ? { overallRate } : {}),
      });
    await run(bareUrl, bareHeaders, undefined, 2); // warm-up
    await run(url, headers, undefined, 2); // warm-up
    // Alternating rounds; each tokens run also gives the main thread's busy time per token (event-loop
    // utilisation × wall time ÷ tokens): the whole embedded system runs on that one thread.
    const rounds: Array<{ baseline: CannonResult; tokens: CannonResult; mainThreadMsPerToken: number; mainThreadCpuMsPerToken: number | null }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const baselineRun = await run(bareUrl, bareHeaders, undefined, THROUGHPUT_S);
      const meter = startMainThreadMeter();
      const tokensRun = await run(url, headers, undefined, THROUGHPUT_S);
      const perToken = perUnit(meter.stop(), tokensRun.requests.average * THROUGHPUT_S);
      rounds.push({ baseline: baselineRun, tokens: tokensRun, mainThreadMsPerToken: perToken.busyMs, mainThreadCpuMsPerToken: perToken.cpuMs });
    }
    const byTokens = [...rounds].sort((a, b) => a.tokens.requests.average - b.tokens.requests.average);
    const median = byTokens[Math.floor(byTokens.length / 2)] as (typeof rounds)[number];
    const { baseline, tokens } = median;
    const paced = await runPacedLoad({
      url,
      method: 'POST',
      headers: merchantHeaders,
      body,
      ratePerSecond: FIXED_RATE,
      durationSeconds: DURATION_S,
      idempotencyKeys: true,
    });
    const bursts = await run(url, headers, FIXED_RATE);
    const pacedBaseline = await runPacedLoad({
      url: bareUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      ratePerSecond: FIXED_RATE,
      durationSeconds: DURATION_S,
      idempotencyKeys: true,
    });
    if (paced.failed > 0) console.log(`warning: ${paced.failed} failed requests during the paced run`);
    for (const [name, r] of [
      ['max', tokens],
      ['burst', bursts],
    ] as const) {
      if (r.non2xx > 0 || r.errors > 0) console.log(`warning: ${r.non2xx} non-2xx and ${r.errors} errors during the ${name} run`);
    }

    const list = (values: number[], digits = 0) => values.map((value) => value.toFixed(digits)).join(', ');
    console.log(
      `connections ${CONNECTIONS}; throughput: ${ROUNDS} alternating rounds of ${THROUGHPUT_S} s each, the median tokens round shown; latency runs ${DURATION_S} s`,
    );
    console.log(
      `bare express JSON parse : ${baseline.requests.average.toFixed(0)} req/s, p50 ${baseline.latency.p50} ms, p99 ${baseline.latency.p99} ms (rounds: ${list(rounds.map((r) => r.baseline.requests.average))})`,
    );
    console.log(
      `POST /tokens via gateway: ${tokens.requests.average.toFixed(0)} tokens/s, p50 ${tokens.latency.p50} ms, p99 ${tokens.latency.p99} ms (rounds: ${list(rounds.map((r) => r.tokens.requests.average))}) (target ≥ 1500/s)`,
    );
    const ratio = (tokens.requests.average / baseline.requests.average) * 100;
    console.log(
      `ratio tokens/bare       : ${ratio.toFixed(1)} % (rounds: ${list(
        rounds.map((r) => (r.tokens.requests.average / r.baseline.requests.average) * 100),
        1,
      )} %) ${againstBudget(ratio, BUDGETS.tokensToBareExpressPercent)}`,
    );
    console.log(
      `main thread per token   : ${median.mainThreadMsPerToken.toFixed(2)} ms busy (rounds: ${list(
        rounds.map((r) => r.mainThreadMsPerToken),
        2,
      )}) ${againstBudget(median.mainThreadMsPerToken, BUDGETS.mainThreadMsPerToken)}; 1,500/s needs ≤ 0.67 ms on the one thread the embedded system runs on`,
    );
    if (median.mainThreadCpuMsPerToken !== null)
      console.log(
        `main thread CPU per token: ${median.mainThreadCpuMsPerToken.toFixed(2)} ms (rounds: ${list(
          rounds.map((r) => r.mainThreadCpuMsPerToken ?? NaN),
          2,
        )}): busy time less the moments the thread waited for a core (autocannon's thread and the service threads share the machine's cores)`,
      );
    console.log(
      `at ${FIXED_RATE} req/s, evenly paced (open loop): p50 ${paced.p50} ms, p90 ${paced.p90} ms, p99 ${paced.p99} ms, max ${paced.max} ms (target p99 < 20 ms); bare express at the same pace: p50 ${pacedBaseline.p50} ms, p99 ${pacedBaseline.p99} ms`,
    );
    console.log(
      `at ${FIXED_RATE} req/s as autocannon -R sends it (${FIXED_RATE} requests in a burst at the start of each second): p50 ${bursts.latency.p50} ms, p99 ${bursts.latency.p99} ms`,
    );
  } finally {
    await system.stop();
    bareServer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

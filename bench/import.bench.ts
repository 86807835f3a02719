// Automatic import in the embedded profile: 1,000 then 10,000 card payment methods from the provider_a
// simulator (platform → gateway /cde-import → vault → token.created → importer), duration, tokens/s and
// peak memory. Baseline in the same run: the same number of cards POSTed straight to /cde-import through
// the gateway with the same concurrency (the vault's own import capacity, no platform round trip).
// Targets: ≥ 500 tokens/s end to end; memory flat between 1,000 and 10,000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { startProviderASimulator } from '../services/importer/dev/provider-a-simulator';

interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface CannonOptions {
  url: string;
  method: string;
  connections: number;
  amount: number;
  headers: Record<string, string>;
  requests: { setupRequest: (request: CannonRequest) => CannonRequest }[];
}
// autocannon ships no type declarations.
const autocannon = createRequire(__filename)('autocannon') as (options: CannonOptions) => Promise<{ non2xx: number; requests: { average: number } }>;

const CONCURRENCY = Number(process.env.BENCH_IMPORT_CONCURRENCY ?? 16);
const CARDS_PER_CUSTOMER = 5;
const PLATFORM_KEY = 'sk_test_bench';

interface Sample {
  heapUsed: number;
  rss: number;
}

function memorySampler(): { stop(): Sample } {
  const peak: Sample = { heapUsed: 0, rss: 0 };
  const take = () => {
    const m = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.rss = Math.max(peak.rss, m.rss);
  };
  const timer = setInterval(take, 50);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function importOnce(simulatorBaseUrl: string, measureBaseline: boolean): Promise<{ seconds: number; imported: number; failed: number; peak: Sample; direct: number | null }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-import-'));
  // A fresh embedded system per account: PROVIDER_A_BASE_URL is read once, at start.
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: { LOG_LEVEL: 'silent', IMPORTER_ALLOW_PRIVATE_PROVIDER: 'true', IMPORTER_CONCURRENCY: String(CONCURRENCY), PROVIDER_A_BASE_URL: simulatorBaseUrl },
  });
  const headers = { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey };
  try {
    global.gc?.();
    const sampler = memorySampler();
    const started = performance.now();
    const created = await fetch(`${system.baseUrl}/tokens/imports`, { method: 'POST', headers, body: JSON.stringify({ provider: 'provider_a', provider_a: { api_key: PLATFORM_KEY } }) });
    if (created.status !== 201) throw new Error(`POST /tokens/imports answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    let result: { seconds: number; imported: number; failed: number; peak: Sample } | null = null;
    while (!result) {
      const answer = await fetch(`${system.baseUrl}/tokens/imports/${id}`, { headers });
      const job = (await answer.json()) as { state: string; failure_reason: string | null; counts: { imported: number; updated: number; failed: number } };
      if (job.state === 'failed') throw new Error(`import failed: ${job.failure_reason}`);
      if (job.state === 'finished') {
        result = { seconds: (performance.now() - started) / 1000, imported: job.counts.imported + job.counts.updated, failed: job.counts.failed, peak: sampler.stop() };
      } else {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    let direct: number | null = null;
    if (measureBaseline) {
      // Baseline: as many cards straight to /cde-import through the gateway, same concurrency.
      let n = 0;
      const run = await autocannon({
        url: `${system.baseUrl}/cde-import`,
        method: 'POST',
        connections: CONCURRENCY,
        amount: result.imported,
        headers,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                metadata: { business_key: `direct_${n++}` },
                card: { number: '4111111111111111', exp_month: '03', exp_year: '2030', cvc: '737', name: 'Bench Direct' },
              }),
            }),
          },
        ],
      });
      if (run.non2xx > 0) console.log(`warning: ${run.non2xx} non-2xx answers in the baseline`);
      direct = run.requests.average;
    }
    return { ...result, direct };
  } finally {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const small = await startProviderASimulator({ apiKey: PLATFORM_KEY, customers: 1_000 / CARDS_PER_CUSTOMER, cardsPerCustomer: CARDS_PER_CUSTOMER });
  const large = await startProviderASimulator({ apiKey: PLATFORM_KEY, customers: 10_000 / CARDS_PER_CUSTOMER, cardsPerCustomer: CARDS_PER_CUSTOMER });
  try {
    const a = await importOnce(small.baseUrl, false);
    const b = await importOnce(large.baseUrl, true);
    const rate = (r: { seconds: number; imported: number }) => r.imported / r.seconds;
    console.log(`concurrency ${CONCURRENCY} forwarding requests; ${CARDS_PER_CUSTOMER} cards per customer; simulator, gateway, vault and importer in this process`);
    console.log(`import  1,000 : ${a.seconds.toFixed(1)} s, ${rate(a).toFixed(0)} tokens/s, failed ${a.failed}, peak heap ${mb(a.peak.heapUsed)}, peak rss ${mb(a.peak.rss)}`);
    console.log(`import 10,000 : ${b.seconds.toFixed(1)} s, ${rate(b).toFixed(0)} tokens/s, failed ${b.failed}, peak heap ${mb(b.peak.heapUsed)}, peak rss ${mb(b.peak.rss)}`);
    console.log(`baseline      : direct POST /cde-import ${(b.direct ?? 0).toFixed(0)} tokens/s`);
    console.log(`ratio import/direct: ${((rate(b) / (b.direct ?? 1)) * 100).toFixed(1)} %`);
    console.log(`target ≥ 500 tokens/s: ${rate(b) >= 500 ? 'met' : 'NOT met'}; peak heap 10k/1k: ${(b.peak.heapUsed / a.peak.heapUsed).toFixed(2)}×`);
  } finally {
    await small.stop();
    await large.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

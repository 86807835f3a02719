// Payments from create to captured through the gateway in the Kafka profile (pnpm start:kafka: a process per
// service, the bus on a real Kafka broker, Redis, SQLite), beside the embedded profile measured in the same run
// with the same load: payments/s and p50/p99 create → captured, and the ratio Kafka / embedded.
//
// The load is payments.bench.ts's (bench/support/payment-load-worker.mjs, on a worker thread): a closed loop of
// consumers, each creating a one-off payment, submitting the card to its session and waiting for the merchant's
// payment.captured webhook. The session reaches the vault by an event and the completion comes back by events,
// so every payment crosses the bus four times (checkout.session.opened, checkout.session.completed,
// payment.processing and payment.captured to the notifier). Two loads: below capacity (16 in flight: the path's
// own latency) and at capacity (256 in flight).
//
// The broker: KAFKA_BROKERS, else scripts/kafka start (stopped afterwards when this run started it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { startKafkaProfile } from '../deploy/launcher/src/kafka';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const WARMUP_S = 2;
const CONCURRENCY = Number(process.env.BENCH_PAYMENTS_CONCURRENCY ?? 256);
const LATENCY_CONCURRENCY = Number(process.env.BENCH_PAYMENTS_LATENCY_CONCURRENCY ?? 16);
const KAFKA_SCRIPT = resolve(__dirname, '../scripts/kafka');

interface LoadResult {
  captured: number;
  failed: number;
  errors: number;
  sessionWaits: number;
  firstError: string | null;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

type WorkerMessage = { type: 'receiver'; url: string } | { type: 'window'; phase: 'start' | 'end' } | ({ type: 'result' } & LoadResult);

/** One load of payment-load-worker.mjs against `baseUrl`; its webhook endpoint is disabled afterwards. */
async function paymentLoad(baseUrl: string, apiKey: string, concurrency: number): Promise<LoadResult> {
  const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  let endpointId = '';
  const result = await new Promise<LoadResult>((done, fail) => {
    const worker = new Worker(join(__dirname, 'support', 'payment-load-worker.mjs'), {
      workerData: { baseUrl, apiKey, concurrency, warmupSeconds: WARMUP_S, durationSeconds: DURATION_S },
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'receiver') {
        fetch(`${baseUrl}/webhook-endpoints`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ url: message.url, events: ['payment.captured', 'payment.failed'], description: 'bench receiver' }),
        })
          .then(async (response) => {
            if (response.status !== 201) throw new Error(`POST /webhook-endpoints answered ${response.status}: ${await response.text()}`);
            endpointId = ((await response.json()) as { id: string }).id;
            worker.postMessage('go');
          })
          .catch(fail);
      } else if (message.type === 'result') done(message);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => code !== 0 && fail(new Error(`payment-load-worker.mjs exited with ${code}`)));
  });
  await fetch(`${baseUrl}/webhook-endpoints/${endpointId}`, { method: 'PATCH', headers, body: JSON.stringify({ enabled: false }) });
  return result;
}

const ENV = {
  LOG_LEVEL: 'silent',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  // Every card comes from 127.0.0.1 here: the per-address limit on card entry (30 per 10 min) would refuse the load.
  VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: '100000000',
  VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS: '100000000',
  ...BENCH_RATE_LIMIT_ENV,
};

interface ProfileRun {
  latency: LoadResult;
  capacity: LoadResult;
}

async function measure(baseUrl: string, apiKey: string): Promise<ProfileRun> {
  const latency = await paymentLoad(baseUrl, apiKey, LATENCY_CONCURRENCY);
  const capacity = await paymentLoad(baseUrl, apiKey, CONCURRENCY);
  return { latency, capacity };
}

/** KAFKA_BROKERS, or a broker scripts/kafka starts (and the function that stops it, when this run started it). */
function brokers(): { brokers: string; stop: () => void } {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS, stop: () => undefined };
  let running = false;
  try {
    execFileSync(KAFKA_SCRIPT, ['status'], { stdio: 'ignore' });
    running = true;
  } catch {
    // not running: started below
  }
  const started = execFileSync(KAFKA_SCRIPT, ['start'], { encoding: 'utf8' });
  const address = /KAFKA_BROKERS=(\S+)/.exec(started)?.[1];
  if (!address) throw new Error(`scripts/kafka start printed no KAFKA_BROKERS: ${started}`);
  return { brokers: address, stop: () => (running ? undefined : void execFileSync(KAFKA_SCRIPT, ['stop'], { stdio: 'inherit' })) };
}

function line(label: string, result: LoadResult): string {
  return (
    `${label.padEnd(30)}: ${result.perSecond.toFixed(0)} payments/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms ` +
    `(${result.captured} captured, ${result.failed} failed, ${result.errors} errors, ${result.sessionWaits} status reads of a session not yet at the vault)` +
    (result.firstError ? `\n  first error: ${result.firstError}` : '')
  );
}

async function main(): Promise<void> {
  const broker = brokers();
  const runs: Record<'embedded' | 'kafka', ProfileRun | undefined> = { embedded: undefined, kafka: undefined };
  try {
    const embeddedDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-embedded-'));
    const embedded = await startEmbedded({ dataDir: embeddedDir, port: 0, env: ENV });
    try {
      runs.embedded = await measure(embedded.baseUrl, embedded.bootstrapApiKey);
    } finally {
      await embedded.stop();
      rmSync(embeddedDir, { recursive: true, force: true });
    }
    const kafkaDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-kafka-'));
    const kafka = await startKafkaProfile({
      dataDir: kafkaDir,
      port: 0,
      stdio: 'ignore',
      brokers: broker.brokers,
      env: { ...ENV, KAFKA_TOPIC_PREFIX: `bench-${Date.now().toString(36)}.` },
    });
    try {
      runs.kafka = await measure(kafka.baseUrl, kafka.bootstrapApiKey);
    } finally {
      await kafka.stop();
      rmSync(kafkaDir, { recursive: true, force: true });
      rmSync(`${kafkaDir}-keys`, { recursive: true, force: true });
    }
  } finally {
    broker.stop();
  }
  const { embedded, kafka } = runs;
  if (!embedded || !kafka) throw new Error('a profile was not measured');
  announceBenchRateLimit();
  console.log(
    `Kafka profile (a process per service, Kafka at ${broker.brokers}) beside the embedded profile, same load: ${LATENCY_CONCURRENCY} and ${CONCURRENCY} payments in flight, ${WARMUP_S} s warm-up, ${DURATION_S} s measured each`,
  );
  console.log(line(`embedded, ${LATENCY_CONCURRENCY} in flight`, embedded.latency));
  console.log(line(`Kafka, ${LATENCY_CONCURRENCY} in flight`, kafka.latency));
  console.log(line(`embedded, ${CONCURRENCY} in flight`, embedded.capacity));
  console.log(line(`Kafka, ${CONCURRENCY} in flight`, kafka.capacity));
  const ratio = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
  console.log(
    `ratio Kafka / embedded        : payments/s ${ratio(kafka.capacity.perSecond, embedded.capacity.perSecond)} at capacity, ${ratio(kafka.latency.perSecond, embedded.latency.perSecond)} below it; ` +
      `p50 ${ratio(kafka.latency.p50, embedded.latency.p50)}, p99 ${ratio(kafka.latency.p99, embedded.latency.p99)} below capacity`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

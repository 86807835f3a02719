// Payments from create to captured through the gateway in the embedded profile: one-off, simulator,
// the card submitted through POST /sessions/{id}/card, completion observed by the merchant's webhook
// (payment.captured). Payments/s and p50/p99 of that path, beside POST /tokens in the same run: a
// payment is one tokenization plus orchestration, so the ratio shows the orchestration's cost.
// Targets: ≥ 300 payments/s; ratio ≥ 40 %; the budgets of issue #33 (main thread per payment and per token,
// bench/support/budgets.ts) printed beside their figures. Every merchant POST of the load (the payment, the
// refund, the token) carries a fresh Idempotency-Key, as the SDK sends one.
//
// Then the same load on real processors' paths, in the same run: the flow matrix switched to an account
// at each processor whose folder gives the bench a stand-in (src/processors/<id>/dev/<id>.bench.ts, its
// manifest naming it and its payments path), answering after 25–75 ms (like a real PSP) or at once, each
// stand-in on a thread of its own (bench/support/psp-stand-ins.ts: a real PSP does not use our CPU).
// The authorization goes through the forwarder (placeholders filled from the vault); captures settle as
// the processor settles them (its answer, or its signed notification through the gateway).
// Target: the 25–75 ms paths within 90 % of the simulator path.
//
// Refunds, in the same run, on the payments the simulator path captured: partial refunds (100 of each
// payment's 1999) created through the gateway and settled by the simulator after its refund delay,
// completion observed by the merchant's refund.succeeded webhook. Refunds/s, p50/p99 and the main
// thread's busy time per refund, beside the payments' figures.
//
// Why a webhook and not polling GET /payments/{id}: the notifier sends the one payment.captured
// delivery a merchant with an endpoint gets anyway (one outbound POST per payment), while polling
// costs a gateway hop and an orchestrator read per poll — about five per payment at a 50 ms interval
// over a ~0.25 s path (many more at capacity, where the path takes seconds), more than the create and card requests measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startEmbedded } from '../deploy/launcher/src/embedded';
import { autocannon } from './support/autocannon';
import { BENCH_RATE_LIMIT_ENV, announceBenchRateLimit } from './support/rate-limit';
import { BUDGETS, IDEMPOTENCY_KEY_PER_REQUEST, againstBudget } from './support/budgets';
import { perUnit, startMainThreadMeter, type MainThreadTime } from './support/main-thread-meter';
import { benchProcessors, startThreadedStandIn, type BenchProcessor, type ThreadedStandIn } from './support/psp-stand-ins';

/** A real PSP's answer time, and at once. */
const PSP_DELAY_MS: [number, number] = [25, 75];

interface PaymentLoadResult {
  captured: number;
  failed: number;
  errors: number;
  sessionWaits: number;
  firstError: string | null;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** The main thread's busy time during the measured window ÷ payments captured in it (the whole embedded system runs there). */
  mainThreadMsPerPayment: number;
  /** The main thread's CPU time over the same window ÷ payments captured (null where it cannot be read). */
  mainThreadCpuMsPerPayment: number | null;
}

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const WARMUP_S = 2;
/** Payments in flight at once: each waits ≈ 0.25 s, most of it the simulator's capture delay, so capacity needs many. */
const CONCURRENCY = Number(process.env.BENCH_PAYMENTS_CONCURRENCY ?? 256);
/** A load well below capacity, for the path's own latency (at capacity p50/p99 are mostly queueing). */
const LATENCY_CONCURRENCY = Number(process.env.BENCH_PAYMENTS_LATENCY_CONCURRENCY ?? 16);
/** `false` measures the simulator path and POST /tokens only (the processors' runs take most of the bench's time). */
const WITH_PROCESSORS = process.env.BENCH_PAYMENTS_PROCESSORS !== 'false';
const TOKEN_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const tokenBody = JSON.stringify({ card: { number: '4111 1111 1111 1111', exp_month: '03', exp_year: '2030', cvc: '737', name: 'Bench Mark' } });

interface RefundLoadResult {
  succeeded: number;
  failed: number;
  errors: number;
  /** Consumers that ran out of payments to refund before the window ended (then the figure is a floor). */
  exhausted: number;
  firstError: string | null;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  mainThreadMsPerRefund: number;
  mainThreadCpuMsPerRefund: number | null;
}

/** Refunds of each captured payment, 100 at a time (the bench's payments are of 1999). */
const REFUND_AMOUNT = 100;
/** Captured payments the refunds run may use (each takes 19 refunds of 100). */
const MAX_REFUNDED_PAYMENTS = 3_000;

type LoadMessage<R> = { type: 'receiver'; url: string } | { type: 'window'; phase: 'start' | 'end' } | ({ type: 'result' } & R);

/**
 * Runs a load worker (bench/support/<file>) that registers its webhook receiver, then measures the main
 * thread's busy time over the worker's measured window: the whole embedded system runs on that thread.
 */
function runLoadWorker<R>(file: string, workerData: Record<string, unknown>, register: (receiverUrl: string) => Promise<void>): Promise<R & MainThreadTime> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'support', file), { workerData: { warmupSeconds: WARMUP_S, durationSeconds: DURATION_S, ...workerData } });
    let meter: ReturnType<typeof startMainThreadMeter> | undefined;
    let measured: MainThreadTime = { busyMs: 0, cpuMs: null };
    worker.on('message', (message: LoadMessage<R>) => {
      if (message.type === 'receiver') register(message.url).then(() => worker.postMessage('go'), reject);
      else if (message.type === 'window' && message.phase === 'start') meter = startMainThreadMeter();
      else if (message.type === 'window') measured = meter?.stop() ?? measured;
      else resolve({ ...(message as R), ...measured });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${file} exited with ${code}`));
    });
  });
}

async function runPaymentLoad(
  baseUrl: string,
  apiKey: string,
  concurrency: number,
  register: (receiverUrl: string) => Promise<void>,
): Promise<PaymentLoadResult> {
  const { busyMs, cpuMs, ...result } = await runLoadWorker<Omit<PaymentLoadResult, 'mainThreadMsPerPayment' | 'mainThreadCpuMsPerPayment'>>(
    'payment-load-worker.mjs',
    { baseUrl, apiKey, concurrency },
    register,
  );
  const perPayment = perUnit({ busyMs, cpuMs }, result.captured);
  return { ...result, mainThreadMsPerPayment: perPayment.busyMs, mainThreadCpuMsPerPayment: perPayment.cpuMs };
}

async function runRefundLoad(
  baseUrl: string,
  apiKey: string,
  paymentIds: string[],
  register: (receiverUrl: string) => Promise<void>,
): Promise<RefundLoadResult> {
  const { busyMs, cpuMs, ...result } = await runLoadWorker<Omit<RefundLoadResult, 'mainThreadMsPerRefund' | 'mainThreadCpuMsPerRefund'>>(
    'refund-load-worker.mjs',
    { baseUrl, apiKey, concurrency: CONCURRENCY, paymentIds, refundAmount: REFUND_AMOUNT },
    register,
  );
  const perRefund = perUnit({ busyMs, cpuMs }, result.succeeded);
  return { ...result, mainThreadMsPerRefund: perRefund.busyMs, mainThreadCpuMsPerRefund: perRefund.cpuMs };
}

/** Captured payments, newest first, through GET /payments?status=captured (the search this run also exercises). */
async function capturedPaymentIds(baseUrl: string, headers: Record<string, string>, max: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  while (ids.length < max) {
    const response = await fetch(`${baseUrl}/payments?status=captured&limit=100${cursor ? `&starting_after=${cursor}` : ''}`, { headers });
    const page = (await response.json()) as { data: Array<{ id: string }>; next_cursor: string | null };
    ids.push(...page.data.map((payment) => payment.id));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return ids.slice(0, max);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-bench-payments-'));
  // Each stand-in on a thread of its own (a real PSP's work is not done on our event loop).
  const standIns: Array<{ name: string; processor: BenchProcessor; server: ThreadedStandIn }> = [];
  for (const processor of WITH_PROCESSORS ? benchProcessors() : []) {
    standIns.push({
      name: `${processor.manifest.display_name}, 25–75 ms`,
      processor,
      server: await startThreadedStandIn(processor, { delayMs: PSP_DELAY_MS }),
    });
    standIns.push({ name: `${processor.manifest.display_name}, at once`, processor, server: await startThreadedStandIn(processor, {}) });
  }
  const paymentsUrl = (standIn: (typeof standIns)[number]) => `${standIn.server.baseUrl}${standIn.processor.paymentsPath}`;
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: {
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // Every card comes from 127.0.0.1 here: the per-address limits on card entry (30 per 10 min, 1,000 for test sessions from loopback) would refuse the load.
      VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: '100000000',
      VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS: '100000000',
      // The stand-ins are plain-http loopback destinations, listed as an operator would.
      FORWARD_HTTPS_ONLY: 'false',
      FORWARD_EXTRA_DESTINATIONS: standIns.map(paymentsUrl).join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
      // The edge's per-key bucket would refuse the load (and the set-up calls after it).
      ...BENCH_RATE_LIMIT_ENV,
      // A stand-in sends every notification of the load to one account from 127.0.0.1.
      PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ADDRESS: '100000',
      PROCESSOR_NOTIFICATIONS_BURST_PER_ADDRESS: '100000',
      PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ACCOUNT: '100000',
      PROCESSOR_NOTIFICATIONS_BURST_PER_ACCOUNT: '100000',
    },
  });
  try {
    const headers = { 'content-type': 'application/json', 'x-api-key': system.bootstrapApiKey };
    // Each run has its own receiver: its endpoint is disabled afterwards, so no delivery to a closed receiver is retried during the next run.
    const endpoints: string[] = [];
    const registerFor = (events: string[]) => async (receiverUrl: string) => {
      const response = await fetch(`${system.baseUrl}/webhook-endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiverUrl, events, description: 'bench receiver' }),
      });
      if (response.status !== 201) throw new Error(`POST /webhook-endpoints answered ${response.status}: ${await response.text()}`);
      endpoints.push(((await response.json()) as { id: string }).id);
    };
    const register = registerFor(['payment.captured', 'payment.failed']);
    const disableEndpoints = async () => {
      for (const id of endpoints.splice(0)) {
        await fetch(`${system.baseUrl}/webhook-endpoints/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ enabled: false }) });
      }
    };
    const steady = await runPaymentLoad(system.baseUrl, system.bootstrapApiKey, LATENCY_CONCURRENCY, register);
    await disableEndpoints();
    const payments = await runPaymentLoad(system.baseUrl, system.bootstrapApiKey, CONCURRENCY, register);
    await disableEndpoints();
    const refundable = await capturedPaymentIds(system.baseUrl, headers, MAX_REFUNDED_PAYMENTS);
    const refunds = await runRefundLoad(system.baseUrl, system.bootstrapApiKey, refundable, registerFor(['refund.succeeded', 'refund.failed']));
    await disableEndpoints();

    const tokenRun = (duration: number) =>
      autocannon({
        url: `${system.baseUrl}/tokens`,
        method: 'POST',
        headers: { ...headers, ...IDEMPOTENCY_KEY_PER_REQUEST },
        body: tokenBody,
        connections: TOKEN_CONNECTIONS,
        duration,
        workers: 1,
        idReplacement: true,
      });
    await tokenRun(WARMUP_S);
    const tokensMeter = startMainThreadMeter();
    const tokens = await tokenRun(DURATION_S);
    const { busyMs: mainThreadMsPerToken, cpuMs: mainThreadCpuMsPerToken } = perUnit(tokensMeter.stop(), tokens.requests.average * DURATION_S);

    const ratio = (payments.perSecond / tokens.requests.average) * 100;
    announceBenchRateLimit();
    console.log(
      `embedded profile; payments: ${CONCURRENCY} in flight (capacity) and ${LATENCY_CONCURRENCY} in flight (latency), ${WARMUP_S} s warm-up, ${DURATION_S} s measured each; tokens: ${TOKEN_CONNECTIONS} connections, ${DURATION_S} s`,
    );
    console.log(
      `payments create→captured : ${payments.perSecond.toFixed(0)} payments/s, p50 ${payments.p50} ms, p99 ${payments.p99} ms, max ${payments.max} ms ` +
        `(${payments.captured} captured, ${payments.failed} failed, ${payments.errors} errors, ${payments.sessionWaits} status reads of a session not yet at the vault) (target ≥ 300/s: ${payments.perSecond >= 300 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  below capacity (${LATENCY_CONCURRENCY} in flight): ${steady.perSecond.toFixed(0)} payments/s, p50 ${steady.p50} ms, p99 ${steady.p99} ms, max ${steady.max} ms ` +
        `(${steady.captured} captured, ${steady.failed} failed, ${steady.errors} errors; 200 ms of it is the simulator's capture delay, PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS)`,
    );
    for (const error of [payments.firstError, steady.firstError].filter(Boolean)) console.log(`  first error: ${error}`);
    console.log(
      `refunds create→succeeded  : ${refunds.perSecond.toFixed(0)} refunds/s, p50 ${refunds.p50} ms, p99 ${refunds.p99} ms, max ${refunds.max} ms ` +
        `(${refunds.succeeded} succeeded, ${refunds.failed} failed, ${refunds.errors} errors; ${CONCURRENCY} in flight on ${refundable.length} captured payments, ${REFUND_AMOUNT} each` +
        `${refunds.exhausted > 0 ? `; ${refunds.exhausted} consumers ran out of payments: a floor` : ''}; 200 ms of it is the simulator's refund delay, PROCESSOR_SIMULATOR_REFUND_DELAY_MS), ` +
        `main thread ${refunds.mainThreadMsPerRefund.toFixed(2)} ms busy per refund${refunds.mainThreadCpuMsPerRefund === null ? '' : `, ${refunds.mainThreadCpuMsPerRefund.toFixed(2)} ms CPU`}`,
    );
    if (refunds.firstError) console.log(`  first error: ${refunds.firstError}`);
    console.log(
      `POST /tokens via gateway  : ${tokens.requests.average.toFixed(0)} tokens/s, p50 ${tokens.latency.p50} ms, p99 ${tokens.latency.p99} ms${tokens.non2xx || tokens.errors ? ` (${tokens.non2xx} non-2xx, ${tokens.errors} errors)` : ''}`,
    );
    console.log(`ratio payments/tokens     : ${ratio.toFixed(1)} % (target ≥ 40 %: ${ratio >= 40 ? 'met' : 'NOT met'})`);
    // Busy time per unit moves less with other load on the machine than throughput does: compare these across runs.
    console.log(
      `main thread busy          : ${payments.mainThreadMsPerPayment.toFixed(2)} ms per payment, ${mainThreadMsPerToken.toFixed(2)} ms per token ` +
        `(cost ratio ${((mainThreadMsPerToken / payments.mainThreadMsPerPayment) * 100).toFixed(1)} %; 300/s needs ≤ 3.3 ms per payment on that one thread)`,
    );
    console.log(
      `  per payment ${payments.mainThreadMsPerPayment.toFixed(2)} ms ${againstBudget(payments.mainThreadMsPerPayment, BUDGETS.mainThreadMsPerPayment)}`,
    );
    console.log(`  per token   ${mainThreadMsPerToken.toFixed(2)} ms ${againstBudget(mainThreadMsPerToken, BUDGETS.mainThreadMsPerToken)}`);
    if (payments.mainThreadCpuMsPerPayment !== null && mainThreadCpuMsPerToken !== null)
      console.log(
        `main thread CPU           : ${payments.mainThreadCpuMsPerPayment.toFixed(2)} ms per payment, ${mainThreadCpuMsPerToken.toFixed(2)} ms per token ` +
          `(busy time less the moments the thread waited for a core: the load generator and the service threads share the machine's cores)`,
      );

    // The real processors' paths: one account, one automatic-capture flow and the matrix pointing at it, per stand-in.
    const onProcessors: Array<{ name: string; result: PaymentLoadResult }> = [];
    for (const standIn of standIns) {
      const call = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${system.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
        if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as { id: string };
      };
      const { id } = standIn.processor.manifest;
      const account = await call('POST', '/processor-accounts', {
        processor: id,
        name: standIn.name,
        credentials: standIn.server.credentials,
        settings: { base_url: standIn.server.baseUrl },
      });
      // A processor that notifies settles captures (or confirms them) by notification, through the gateway.
      await standIn.server.setWebhookUrl(`${system.baseUrl}/processor-notifications/${id}/${account.id}`);
      const flow = `bench-${id}-${onProcessors.length}`;
      await call('POST', '/flows', {
        name: flow,
        capture_mode: 'automatic',
        steps: [
          { kind: 'authorization', processor: account.id },
          { kind: 'capture', processor: account.id },
        ],
      });
      await call('PUT', '/flow-matrix', { default_flow: flow, rules: [] });
      onProcessors.push({ name: standIn.name, result: await runPaymentLoad(system.baseUrl, system.bootstrapApiKey, CONCURRENCY, register) });
      await disableEndpoints();
    }

    for (const { name, result } of onProcessors) {
      const share = (result.perSecond / payments.perSecond) * 100;
      const target = name.includes('25–75') ? ` (target ≥ 90 % of the simulator path: ${share >= 90 ? 'met' : 'NOT met'})` : '';
      console.log(
        `${`payments on ${name}`.padEnd(34)}: ${result.perSecond.toFixed(0)} payments/s, p50 ${result.p50} ms, p99 ${result.p99} ms (${result.captured} captured, ${result.failed} failed, ${result.errors} errors), ` +
          `main thread ${result.mainThreadMsPerPayment.toFixed(2)} ms per payment, ${share.toFixed(0)} % of the simulator path${target}`,
      );
      if (result.firstError) console.log(`  first error: ${result.firstError}`);
    }
  } finally {
    await system.stop();
    await Promise.all(standIns.map((standIn) => standIn.server.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '@vaultline/core';
import { startLocal, type LocalSystem } from '@vaultline/launcher';
import { STAND_IN_CREDENTIALS, startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { ADYEN_BODY } from './support/forward-scenario';
import { PLATFORM_API_KEY, importEnv, startImportPlatform, type ImportJobView, type ImportPlatform } from './support/import-scenario';
import { ADMIN_API_KEY, MERCHANT_API_KEY } from './support/merchant-api';
import { PAYMENT_CVC, PAYMENT_ENV, SIMULATOR_CARDS, dayFromNow, timeFromNow, type PaymentView, type TransactionView } from './support/payment-scenario';
import { CrashClient } from './support/crash-client';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Crash recovery under load (issue 17), local profile: a process per service, Redis Streams, SQLite.
 * Three merchant backends keep tokenizing, forwarding, paying (one-off, recurring with a subsequent
 * payment, manual capture) and consumers keep entering cards, while each service in turn gets SIGKILL —
 * the orchestrator right after cards were entered (its payments mid-flow), then the vault, the
 * forwarder, the notifier, the gateway — and is started again. The backends retry as a merchant would:
 * the same Idempotency-Key after a network error, a 5xx, a 429 or 409 idempotency_key_in_use.
 *
 * Afterwards every payment answered 200 must reach the state the simulator decides for its card (the
 * simulator is deterministic: the approved card is captured, the declined one fails), with at most one
 * successful authorization and one successful capture at the processor (its transactions) and captured ≤
 * authorized ≤ requested; every state change has its event, every event its webhook (duplicates allowed,
 * losses not), every token its token.created event, and no import job is left running.
 */
type ServiceName = Parameters<LocalSystem['kill']>[0];
const KILL_ORDER: ServiceName[] = ['payment-orchestrator', 'vault', 'forwarder', 'notifier', 'gateway'];
const WORKERS = 3;
/** The import running while the vault is killed: this many customers of two cards each. */
const IMPORT_CUSTOMERS = 50;
/** How long every effect has to appear after the load stopped (a loaded 2-core machine). */
const SETTLE_MS = 120_000;

type Kind = 'one-off' | 'declined' | 'recurring-initial' | 'subsequent' | 'manual';

interface TrackedPayment {
  id: string;
  kind: Kind;
  requested: number;
}

describe('crash recovery under load, local profile (SIGKILL each service in turn)', () => {
  let dataDir: string;
  let system: LocalSystem | undefined;
  let receiver: WebhookReceiver | undefined;
  let standIns: DestinationStandIns | undefined;
  let platform: ImportPlatform | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-crash-'));
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
    await standIns?.stop();
    await platform?.simulator.stop();
    // CRASH_KEEP_DATA=1 keeps the services' logs and databases for a look after a failure.
    if (process.env.CRASH_KEEP_DATA) process.stdout.write(`crash recovery data kept in ${dataDir}\n`);
    else {
      rmSync(dataDir, { recursive: true, force: true });
      // The vault's development key file is written beside the data directory.
      rmSync(`${dataDir}-keys`, { recursive: true, force: true });
    }
  });

  it('when every service is killed and restarted under a steady mix of tokens, forwards, payments, captures and webhooks, then nothing is lost, nothing happens twice at the processor, and no payment is stuck', async () => {
    const startedAt = Date.now();
    [receiver, standIns, platform] = await Promise.all([startWebhookReceiver(), startDestinationStandIns(), startImportPlatform(IMPORT_CUSTOMERS, 2)]);
    system = await startLocal({
      dataDir,
      port: 0,
      stdio: 'files',
      env: {
        BOOTSTRAP_API_KEY: MERCHANT_API_KEY,
        ADMIN_API_KEY,
        LOG_LEVEL: 'warn',
        ...PAYMENT_ENV,
        ...standIns.forwarderEnv,
        ...importEnv(platform),
        // The backends' polling is not this test's subject.
        RATE_LIMIT_PER_SECOND: '1000',
        RATE_LIMIT_BURST: '2000',
        // A gateway killed mid-request leaves its Idempotency-Key claimed until the lease (upstream timeout + 10 s) ends.
        GATEWAY_UPSTREAM_TIMEOUT: '15000',
        // Every consumer of this test enters cards from 127.0.0.1: the per-address limit (30 per 10 min) is not the subject.
        VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: '100000',
      },
    });
    const client = new CrashClient(system.baseUrl, MERCHANT_API_KEY);
    // The platform forwards every card of the import to the gateway's /cde-import (PUBLIC_BASE_URL's host).
    platform.simulator.enableForwardingTo(`http://localhost:${new URL(system.baseUrl).port}/cde-import`);
    const endpoint = (await client.expect(201, 'POST', '/webhook-endpoints', { json: { url: receiver.url, events: [], description: 'crash receiver' } })).json<{
      id: string;
    }>();
    await client.expect(200, 'PUT', '/flow-matrix', {
      json: { default_flow: 'simulator_auto_capture', rules: [{ name: 'manual', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }] },
    });

    const tokens: string[] = [];
    const payments: TrackedPayment[] = [];
    let forwardsAnswered = 0;
    let operations = 0;
    const failures: string[] = [];

    const createPayment = async (path: string, kind: Kind, body: Record<string, unknown>, key: string, headers: Record<string, string> = {}) => {
      const answer = await client.expect(200, 'POST', path, { json: { currency_code: 'EUR', ...body }, headers: { 'Idempotency-Key': key, ...headers } });
      const payment = answer.json<PaymentView>();
      payments.push({ id: payment.id, kind, requested: payment.amount.requested });
      operations++;
      return payment;
    };
    const paid = async (path: string, kind: Kind, body: Record<string, unknown>, key: string, card: string) => {
      const payment = await createPayment(path, kind, { amount: 1999, source: { type: 'vaultline' }, ...body }, key);
      await client.submitCard(payment.action_requirement!.session_id, card, PAYMENT_CVC);
      operations++;
      return payment;
    };

    /** What each backend is doing (for a failure's message). */
    const doing: string[] = new Array<string>(WORKERS).fill('starting');
    /** One round of a merchant backend: every kind of operation once. */
    const round = async (name: string, i: number) => {
      const worker = Number(name.split('-')[0]);
      const step = (what: string) => (doing[worker] = `round ${i}: ${what}`);
      step('token');
      const token = await client.expect(201, 'POST', '/tokens', {
        json: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' }, business_key: `crash-${name}` },
        headers: { 'Idempotency-Key': `tok-${name}` },
      });
      tokens.push(token.json<{ id: string }>().id);
      operations++;
      step('forward');
      await client.expect(200, 'POST', '/forward', {
        json: ADYEN_BODY,
        headers: {
          'Idempotency-Key': `fwd-${name}`,
          'X-SERVICE-TOKEN': token.json<{ id: string }>().id,
          'X-DESTINATION-URL': standIns!.adyen.url,
          'X-API-KEY-ADYEN-NAME': 'X-API-Key',
          'X-API-KEY-ADYEN-VALUE': STAND_IN_CREDENTIALS.adyenApiKey,
        },
      });
      forwardsAnswered++;
      operations++;
      step('one-off');
      const declined = i % 3 === 2;
      const oneOff = await paid(
        '/payments/one-off',
        declined ? 'declined' : 'one-off',
        { reference: `crash-one-off-${name}` },
        `one-off-${name}`,
        declined ? SIMULATOR_CARDS.declined : SIMULATOR_CARDS.approved,
      );
      // A declined card is one attempt: the consumer then returns to the shop, and the payment fails.
      if (declined) {
        step(`declined ${oneOff.id}: leaving`);
        await client.leaveAfterFailedCard(oneOff.action_requirement!.session_id, SETTLE_MS);
      }
      step('recurring initial');
      const initial = await paid(
        '/payments/recurring',
        'recurring-initial',
        { reference: `crash-recurring-${name}`, recurring_frequency: 30, recurring_expiry: dayFromNow(90) },
        `recurring-${name}`,
        SIMULATOR_CARDS.approved,
      );
      step('manual');
      const manual = await paid('/payments/one-off', 'manual', { reference: `manual-crash-${name}` }, `manual-${name}`, SIMULATOR_CARDS.approved);
      step(`initial ${initial.id} captured?`);
      await client.untilStatus(initial.id, ['captured'], SETTLE_MS);
      step('subsequent');
      await createPayment(
        `/payments/recurring/${initial.id}/subsequent`,
        'subsequent',
        { amount: 999, reference: `crash-subsequent-${name}` },
        `subsequent-${name}`,
        {
          'X-Test-Now': timeFromNow(31),
        },
      );
      step(`manual ${manual.id} authorized?`);
      await client.untilStatus(manual.id, ['authorized'], SETTLE_MS);
      step('capture');
      await client.expect(200, 'POST', `/payments/${manual.id}/capture`, {
        json: { amount: 1500, currency_code: 'EUR', reference: `capture-${name}` },
        headers: { 'Idempotency-Key': `capture-${name}` },
      });
      operations++;
    };

    let loading = true;
    const roundsDone = new Array<number>(WORKERS).fill(0);
    const load = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; loading; i++) {
        try {
          await round(`${worker}-${i}`, i);
        } catch (error) {
          failures.push(`worker ${worker} round ${i}: ${(error as Error).message}`);
        }
        roundsDone[worker]!++;
      }
    });

    // Each service in turn: killed (no drain), started again once it is gone.
    const kills: string[] = [];
    let restarts = 0;
    let importJob: ImportJobView | undefined;
    let midFlow: string[] = [];
    let orchestratorKilledAt = 0;
    try {
      await client
        .waitUntil(async () => roundsDone.every((n) => n >= 1), SETTLE_MS)
        .catch((error: Error) => {
          throw new Error(`${error.message}: ${doing.join('; ')}; ${failures.join('; ')}`);
        });
      for (const service of KILL_ORDER) {
        if (service === 'payment-orchestrator') {
          // Mid-flow: cards just entered, the orchestrator is running their payments when it dies.
          const entered = await Promise.all(
            [0, 1, 2].map((n) => paid('/payments/one-off', 'one-off', { reference: `crash-mid-flow-${n}` }, `mid-flow-${n}`, SIMULATOR_CARDS.approved)),
          );
          midFlow = entered.map((payment) => payment.id);
          orchestratorKilledAt = Date.now();
        } else if (service === 'vault') {
          // An import is tokenizing through the vault when it dies.
          importJob = (
            await client.expect(201, 'POST', '/tokens/imports', {
              json: { provider: 'provider_a', provider_a: { api_key: PLATFORM_API_KEY } },
              headers: { 'Idempotency-Key': 'crash-import' },
            })
          ).json<ImportJobView>();
          await sleep(500);
        } else await sleep(2_000);
        await system.kill(service);
        kills.push(service);
        await sleep(1_000);
        await system.start(service);
        restarts++;
      }
      // A last round of every worker on the restarted system.
      const afterRestarts = [...roundsDone];
      await client
        .waitUntil(async () => roundsDone.every((n, worker) => n > afterRestarts[worker]!), SETTLE_MS)
        .catch(() => failures.push(`no round after the restarts: ${doing.join('; ')}`));
    } finally {
      loading = false;
      await Promise.all(load);
    }
    const loadEndedAt = Date.now();

    // Every payment reaches the simulator's outcome for its card.
    const expected: Record<Kind, PaymentView['status']> = {
      'one-off': 'captured',
      declined: 'failed',
      'recurring-initial': 'captured',
      subsequent: 'captured',
      manual: 'captured',
    };
    const finals = new Map<string, PaymentView>();
    await client
      .waitUntil(async () => {
        for (const payment of payments) {
          if (finals.has(payment.id)) continue;
          const view = (await client.expect(200, 'GET', `/payments/${payment.id}`)).json<PaymentView>();
          if (view.status === expected[payment.kind]) finals.set(payment.id, view);
        }
        return finals.size === payments.length;
      }, SETTLE_MS)
      .catch(() => undefined);
    const stuck: string[] = [];
    const twiceAtProcessor: string[] = [];
    const amountsOff: string[] = [];
    for (const payment of payments) {
      const view = finals.get(payment.id) ?? (await client.expect(200, 'GET', `/payments/${payment.id}`)).json<PaymentView>();
      if (view.status !== expected[payment.kind]) stuck.push(`${payment.kind} ${payment.id}: ${view.status} (${view.failure_reason ?? ''})`);
      const transactions = (await client.expect(200, 'GET', `/payments/${payment.id}/transactions`)).json<{ data: TransactionView[] }>().data;
      const succeeded = (kind: TransactionView['kind']) => transactions.filter((t) => t.kind === kind && t.status === 'succeeded').length;
      if (succeeded('authorization') > 1 || succeeded('capture') > 1)
        twiceAtProcessor.push(`${payment.id}: ${transactions.map((t) => `${t.kind}:${t.status}`).join(',')}`);
      const { requested, authorized = 0, captured = 0 } = view.amount;
      if (!(captured <= authorized && authorized <= requested && requested === payment.requested))
        amountsOff.push(`${payment.id}: ${JSON.stringify(view.amount)}`);
    }

    // Every state change has its event; every token its token.created.
    const expectedEvents = (payment: TrackedPayment): string[] => {
      const final = `payment.${expected[payment.kind]}`;
      return payment.kind === 'manual' ? ['payment.processing', 'payment.authorized', 'payment.capturing', final] : ['payment.processing', final];
    };
    let events: Array<{ id: string; type: string; created_at: string; data: Record<string, unknown> }> = [];
    const missingEvents = (): string[] => {
      const seen = new Set(events.map((e) => `${e.type}/${String(e.data.payment_id ?? e.data.token_id)}`));
      return [
        ...payments.flatMap((p) =>
          expectedEvents(p)
            .filter((type) => !seen.has(`${type}/${p.id}`))
            .map((type) => `${type} of ${p.id}`),
        ),
        ...tokens.filter((id) => !seen.has(`token.created/${id}`)).map((id) => `token.created of ${id}`),
      ];
    };
    await client
      .waitUntil(async () => {
        events = await client.all('/events');
        return missingEvents().length === 0;
      }, SETTLE_MS)
      .catch(() => undefined);

    // Every event its webhook: the endpoint's delivery (webhook-id) for each event reached the receiver.
    const receivedIds = () => receiver!.received.map((w) => String(w.headers['webhook-id']));
    let unwebhooked: string[] = [];
    await client
      .waitUntil(async () => {
        const deliveries = await client.all<{ id: string; event_id: string }>(`/webhook-endpoints/${endpoint.id}/deliveries`);
        const received = new Set(receivedIds());
        const deliveredEvents = new Set(deliveries.filter((d) => received.has(d.id)).map((d) => d.event_id));
        unwebhooked = events.filter((e) => !deliveredEvents.has(e.id)).map((e) => `${e.type} ${e.id}`);
        return unwebhooked.length === 0;
      }, SETTLE_MS)
      .catch(() => undefined);
    // A request whose answer was lost (the gateway died with it) and ran again: two payments with one reference.
    const references = new Map<string, number>();
    for (const payment of await client.all<PaymentView>('/payments'))
      if (payment.reference) references.set(payment.reference, (references.get(payment.reference) ?? 0) + 1);
    const duplicatePayments = [...references.values()].reduce((sum, n) => sum + n - 1, 0);
    // The forwarder passes the merchant's Idempotency-Key on to the PSP: a forward resent after the gateway died
    // with it in flight arrives with the same key, which the PSP answers once (Adyen, Stripe, Checkout.com do).
    const forwardKeys = standIns.adyen.received.map((request) => String(request.headers['idempotency-key']));
    const distinctForwards = new Set(forwardKeys).size;
    const ids = receivedIds();
    const duplicateWebhooks = ids.length - new Set(ids).size;

    // The import ends (finished or failed, never left running), and every card it imported has its token.created.
    let importJobs: ImportJobView[] = [];
    await client
      .waitUntil(async () => {
        importJobs = await client.all<ImportJobView>('/tokens/imports');
        return importJobs.every((job) => job.state === 'finished' || job.state === 'failed');
      }, SETTLE_MS)
      .catch(() => undefined);
    const runningImports = importJobs.filter((job) => job.state !== 'finished' && job.state !== 'failed');
    const imported = importJobs.find((job) => job.id === importJob?.id);
    const importTokenEvents = new Set(events.filter((e) => e.type === 'token.created' && e.data.source === 'cde_import').map((e) => String(e.data.token_id)))
      .size;
    // Which mid-flow payments were still running when the orchestrator died: their final event came after the kill.
    const finishedAfterKill = midFlow.filter((id) =>
      events.some((e) => e.type === 'payment.captured' && e.data.payment_id === id && Date.parse(e.created_at) > orchestratorKilledAt),
    ).length;

    const counts = {
      operations,
      rounds: roundsDone.reduce((a, b) => a + b, 0),
      kills: kills.length,
      killed: kills.join(','),
      restarts,
      requestsRetried: client.retried,
      idempotentReplays: client.replays,
      tokens: tokens.length,
      forwardsAnswered,
      forwardsAtDestination: standIns.adyen.received.length,
      payments: payments.length,
      events: events.length,
      webhooksReceived: ids.length,
      duplicatesSeen: { webhooks: duplicateWebhooks, payments: duplicatePayments, forwardsResentWithTheirKey: forwardKeys.length - distinctForwards },
      losses: { stuckPayments: stuck.length, missingEvents: missingEvents().length, eventsWithoutWebhook: unwebhooked.length },
      twiceAtProcessor: twiceAtProcessor.length,
      amountsOff: amountsOff.length,
      midFlowAtOrchestratorKill: `${finishedAfterKill} of ${midFlow.length}`,
      importJob: imported ? { state: imported.state, ...imported.counts } : null,
      importTokenEvents,
      runningImports: runningImports.length,
      failedOperations: failures.length,
      loadSeconds: Math.round((loadEndedAt - startedAt) / 1000),
      totalSeconds: Math.round((Date.now() - startedAt) / 1000),
    };
    process.stdout.write(`crash recovery counts: ${JSON.stringify(counts)}\n`);

    expect(failures).toEqual([]);
    expect(kills).toEqual(KILL_ORDER);
    expect(restarts).toBe(KILL_ORDER.length);
    expect(stuck).toEqual([]);
    expect(twiceAtProcessor).toEqual([]);
    expect(duplicatePayments).toBe(0);
    expect(amountsOff).toEqual([]);
    expect(missingEvents()).toEqual([]);
    expect(unwebhooked).toEqual([]);
    expect(runningImports).toEqual([]);
    expect(imported).toMatchObject({ state: 'finished' });
    expect(importTokenEvents).toBeGreaterThanOrEqual(imported!.counts.imported);
    expect(imported!.counts.imported + imported!.counts.updated + imported!.counts.failed).toBe(IMPORT_CUSTOMERS * 2);
    expect(finishedAfterKill).toBeGreaterThan(0);
    expect(forwardsAnswered).toBeGreaterThan(0);
    expect(distinctForwards).toBe(forwardsAnswered);
  }, 900_000);
});

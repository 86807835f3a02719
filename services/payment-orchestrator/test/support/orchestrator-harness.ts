import { generateInternalKeyPair, InternalTokenSigner, InternalTokenVerifier, SCOPES } from '@vaultline/auth';
import { eventMessage, openBus, type Bus } from '@vaultline/bus';
import { checkoutSessionAbandonedV1, checkoutSessionCompletedV1, checkoutSessionReturnedV1, topics, type EventData } from '@vaultline/contracts';
import { ManualClock, newId } from '@vaultline/core';
import { startHttpServer } from '@vaultline/http';
import { SERVICE_NAMES, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { createLogger } from '@vaultline/logger';
import { MetricsRegistry } from '@vaultline/metrics';
import { MemoryDocumentStore, SqliteDocumentStore, type DocumentStore } from '@vaultline/store';
import { MemoryTtlStore } from '@vaultline/ttl';
import { createApp, loadPaymentOrchestratorConfig, type PaymentOrchestratorApp } from '../../src';
import type { ProcessorPlugins } from '../../src/processors/processor-plugin';
import type { ProcessorTransport } from '../../src/processors/transport-port';

export interface Caller {
  merchantId: string;
  mode?: 'test' | 'live';
}

// Responses are arbitrary JSON that each test reads by path.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

export const MERCHANT: Caller = { merchantId: 'merchant_a', mode: 'test' };
export const OTHER_MERCHANT: Caller = { merchantId: 'merchant_b', mode: 'test' };
export const LIVE_MERCHANT: Caller = { merchantId: 'merchant_live', mode: 'live' };

/** Cards by their masked number, as checkout.session.completed carries them. */
export const CARDS = {
  approved: '424242******4242',
  declined: '400000******0002',
  insufficientFunds: '400000******9995',
  threeRiFails: '400000******3220',
  captureFails: '400000******0259',
  processorError: '400000******0119',
  /** Captured normally; every refund of it fails (refund_failed). */
  refundFails: '400000******5126',
  /** 3-D Secure: the issuer asks for a challenge; frictionless; challenge then card_declined. */
  challenge: '400000******3063',
  frictionless: '400000******3097',
  challengeThenDeclined: '400000******1629',
  /** 4000 0027 6000 3184: the issuer's SCA soft decline unless a challenge ran. */
  authenticationRequired: '400000******3184',
  /** 4000 0000 0000 9979: reported stolen (a hard decline). */
  stolen: '400000******9979',
  /** 4000 0000 0000 0341: approved with the consumer; every merchant-initiated charge declined insufficient_funds. */
  mitInsufficientFunds: '400000******0341',
  /** 5105 1051 0510 5100 (Mastercard): approved with the consumer; every merchant-initiated charge declined with MAC 03. */
  mitDoNotTryAgain: '510510******5100',
} as const;

export interface PublishedEvent {
  id: string;
  type: string;
  merchant_id: string;
  livemode: boolean;
  data: Json;
}

export interface Harness {
  app: PaymentOrchestratorApp;
  clock: ManualClock;
  bus: Bus;
  store: DocumentStore;
  /** The service's metrics (the registry a /metrics listener would serve). */
  metrics: MetricsRegistry;
  /** The service's log lines at warn and above (a LOG_LEVEL other than silent sets the level and echoes them to stdout), as JSON text. */
  logLines: string[];
  /** Every event the service published, in order (payments, refunds, disputes and checkout-sessions topics). */
  events: PublishedEvent[];
  call(caller: Caller, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** A public call (no merchant key, as the gateway sends a processor's notification): the raw body as given, the answer as text. */
  postPublic(path: string, rawBody: string, headers?: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }>;
  /** The vault's side of the hosted page: publishes checkout.session.completed for the payment's session. */
  submitCard(
    payment: Json,
    masked?: string,
    options?: { eventId?: string; scheme?: string; merchantId?: string; submittedAt?: string; attempt?: number; tokenId?: string },
  ): Promise<EventData<typeof checkoutSessionCompletedV1>>;
  /** The consumer left the hosted page while it waited for a card: checkout.session.abandoned, as the vault publishes it. */
  abandon(payment: Json, merchantId?: string): Promise<void>;
  /** The vault's side of a stored-card session (earlier interface, rules 3 and 5): completes it with the stored card the session shows. */
  confirmStoredCard(payment: Json, merchantId?: string): Promise<void>;
  /** Publishes the same completion again (a duplicate delivery, same event id). */
  redeliver(data: EventData<typeof checkoutSessionCompletedV1>, merchantId: string, eventId: string): Promise<void>;
  /** The consumer is back from the issuer's page: checkout.session.returned, as the vault publishes it. */
  returnFromBank(payment: Json, parameters: Record<string, string>, options?: { merchantId?: string; eventId?: string }): Promise<void>;
  /** Waits until the service consumed every event published so far and ran what is due now. */
  settle(): Promise<void>;
  /** Moves the clock, then runs what fell due (capture settlements, expired sessions). */
  advance(ms: number): Promise<void>;
  /** Creates a one-off payment and pays it with `masked`; resolves with the payment once settled. */
  payOneOff(caller: Caller, masked: string, body?: Record<string, unknown>, path?: string): Promise<Json>;
  stop(): Promise<void>;
}

export const oneOff = (overrides: Record<string, unknown> = {}) => ({
  amount: 1250,
  currency_code: 'EUR',
  reference: 'order-1',
  source: { type: 'vaultline' },
  ...overrides,
});
export const recurring = (overrides: Record<string, unknown> = {}) => ({ ...oneOff(), recurring_frequency: 30, recurring_expiry: '20271231', ...overrides });

/** A harness whose merchant captures payments referenced manual-… by hand and every other automatically. */
export async function startWithManualCaptureRule(options: HarnessOptions = {}): Promise<Harness> {
  const h = await startOrchestrator(options);
  const matrix = await h.call(MERCHANT, 'PUT', '/flow-matrix', {
    default_flow: 'simulator_auto_capture',
    rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
  });
  if (matrix.status !== 200) throw new Error(`flow matrix answered ${matrix.status}`);
  return h;
}

/** Seals processor-account credentials in tests (a fixed key, so a restarted harness opens them). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

const gatewayKeys = generateInternalKeyPair();
const orchestratorKeys = generateInternalKeyPair();
/** The key the harness's orchestrator signs its internal calls with: a real neighbour (the forwarder) verifies them with it. */
export const ORCHESTRATOR_PUBLIC_KEY = orchestratorKeys.publicKeyPem;
const gatewaySigner = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem);

/** The orchestrator alone on loopback with the memory store and bus and a clock the test moves. */
export interface HarnessOptions {
  env?: Record<string, string>;
  start?: string;
  /** An SQLite file, so a second harness can reopen the same data (restart tests). */
  storeFile?: string;
  /** The system's time instead of a clock the test moves: the worker's own timers do the waiting. */
  realTime?: boolean;
  /** How real processors are reached (default: the forwarder, absent here unless `inProcessApis` hands one over). */
  transport?: ProcessorTransport;
  /** Neighbours in this process, as the embedded profile hands them over (a real forwarder: test/support/real-forwarder.ts). */
  inProcessApis?: ServiceRuntime['inProcessApis'];
  /** The processor plugins (default: the registry); a test registers its own processor here. */
  plugins?: ProcessorPlugins;
  /** The bus to run on (a RedeliveringBus in duplicate-delivery tests); default a memory bus of its own. Left open on stop. */
  bus?: Bus;
  /** Routing's random source (default Math.random): a seeded one makes success-rate and weighted decisions repeat. */
  random?: () => number;
}

class SystemTimeClock extends ManualClock {
  override now(): Date {
    return new Date();
  }
}

export async function startOrchestrator(options: HarnessOptions = {}): Promise<Harness> {
  const clock = options.realTime ? new SystemTimeClock() : new ManualClock(options.start ?? '2026-06-01T10:00:00.000Z');
  const store = options.storeFile ? await SqliteDocumentStore.open(options.storeFile) : new MemoryDocumentStore();
  const bus = options.bus ?? (await openBus('memory://'));
  const metrics = new MetricsRegistry();
  const logLines: string[] = [];
  /** A developer's LOG_LEVEL (jest.setup makes it silent otherwise): lines also go to stdout. */
  const verboseLevel = process.env.LOG_LEVEL && process.env.LOG_LEVEL !== 'silent' ? process.env.LOG_LEVEL : undefined;
  const captureLine = (line: string): void => {
    logLines.push(line);
    if (verboseLevel) process.stdout.write(line);
  };
  const runtime: ServiceRuntime = {
    store,
    bus,
    ttl: new MemoryTtlStore({ clock }),
    logger: createLogger({ service: 'payment-orchestrator', level: verboseLevel ?? 'warn', destination: { write: captureLine } }),
    metrics: metrics.forService('payment-orchestrator'),
    clock,
    signer: new InternalTokenSigner('payment-orchestrator', orchestratorKeys.privateKeyPem),
    verifier: new InternalTokenVerifier('payment-orchestrator', { gateway: gatewayKeys.publicKeyPem }),
    serviceUrls: Object.fromEntries(SERVICE_NAMES.map((s) => [s, 'http://127.0.0.1:9'])) as Record<ServiceName, string>,
    publicBaseUrl: 'http://127.0.0.1:9',
    ...(options.inProcessApis ? { inProcessApis: options.inProcessApis } : {}),
  };
  const config = loadPaymentOrchestratorConfig({
    PAYMENT_WORKER_POLL_MS: '60000',
    AFTER_SALE_WORKER_POLL_MS: '60000',
    PAYMENT_ORCHESTRATOR_SECRET_KEY: TEST_SECRET_KEY,
    ...options.env,
  });
  const app = createApp(runtime, config, {
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  await app.start();
  const server = await startHttpServer(app.http);

  const events: PublishedEvent[] = [];
  await bus.ensureTopics([
    topics.payments,
    topics.refunds,
    topics.checkoutSessionsOpened,
    topics.checkoutSessionsCompleted,
    topics.disputes,
    topics.earlyFraudWarnings,
  ]);
  /** The sessions opened so far and whether live, by id: a card's completion looks its session up here (at once, however many payments a run makes). */
  const openedSessions = new Map<string, boolean>();
  const captured = await Promise.all(
    [topics.payments, topics.refunds, topics.checkoutSessionsOpened, topics.disputes, topics.earlyFraudWarnings].map((topic) =>
      bus.subscribe({
        topics: [topic],
        group: `test-capture-${newId()}`,
        handler: async (delivery) => {
          const event = JSON.parse(delivery.value) as PublishedEvent;
          events.push(event);
          if (event.type === 'checkout.session.opened') openedSessions.set(event.data.session_id as string, event.livemode);
        },
      }),
    ),
  );
  let published = 0;
  let consumed = 0;
  const completions = await bus.subscribe({
    topics: [topics.checkoutSessionsCompleted],
    group: `test-observer-${newId()}`,
    handler: async () => void consumed++,
  });

  const harness: Harness = {
    app,
    clock,
    bus,
    store,
    metrics,
    logLines,
    events,
    async call(caller, method, path, body, headers = {}) {
      const token = gatewaySigner.sign('payment-orchestrator', {
        merchantId: caller.merchantId,
        scopes: [SCOPES.merchant],
        ...(caller.mode ? { mode: caller.mode } : {}),
      });
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Json) : undefined, headers: response.headers };
    },
    async postPublic(path, rawBody, headers = {}) {
      const token = gatewaySigner.sign('payment-orchestrator', { merchantId: 'public', scopes: [SCOPES.public] });
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: rawBody,
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async submitCard(payment, masked = CARDS.approved, submitOptions = {}) {
      const data: EventData<typeof checkoutSessionCompletedV1> = {
        session_id: payment.action_requirement.session_id,
        payment_id: payment.id,
        token_id: submitOptions.tokenId ?? newId(),
        card: {
          masked_account_number: masked,
          scheme: submitOptions.scheme ?? 'VISA',
          expiry_month: 12,
          expiry_year: 2034,
          cardholder_name: 'Ada Lovelace',
          submitted_at: submitOptions.submittedAt ?? clock.now().toISOString(),
        },
        ...(submitOptions.attempt ? { attempt: submitOptions.attempt } : {}),
      };
      await harness.redeliver(data, submitOptions.merchantId ?? MERCHANT.merchantId, submitOptions.eventId ?? newId());
      return data;
    },
    async confirmStoredCard(payment, merchantId = MERCHANT.merchantId) {
      await harness.settle();
      const opened = events.find((e) => e.type === 'checkout.session.opened' && e.data.session_id === payment.action_requirement.session_id);
      if (!opened?.data.stored_card) throw new Error(`no stored-card session opened for payment ${payment.id}`);
      const stored = opened.data.stored_card;
      const card = {
        masked_account_number: stored.masked_account_number,
        scheme: stored.scheme ?? 'VISA',
        expiry_month: stored.expiry_month,
        expiry_year: stored.expiry_year,
        cardholder_name: stored.cardholder_name,
        submitted_at: clock.now().toISOString(),
      };
      await harness.redeliver(
        { session_id: payment.action_requirement.session_id, payment_id: payment.id, token_id: stored.token_id, card },
        merchantId,
        newId(),
      );
    },
    async redeliver(data, merchantId, eventId) {
      // As the vault does: the completion comes in the mode of the session the payment opened.
      await until(() => openedSessions.has(data.session_id), 1_000).catch(() => undefined);
      const mode = openedSessions.get(data.session_id) ? 'live' : 'test';
      await bus.publish([eventMessage(checkoutSessionCompletedV1, { scope: { merchantId, mode }, data, id: eventId, occurredAt: clock.now() })]);
      published++;
    },
    async abandon(payment, merchantId = MERCHANT.merchantId) {
      const data = { session_id: payment.action_requirement.session_id, payment_id: payment.id, abandoned_at: clock.now().toISOString() };
      await bus.publish([
        eventMessage(checkoutSessionAbandonedV1, { scope: { merchantId, mode: payment.livemode ? 'live' : 'test' }, data, occurredAt: clock.now() }),
      ]);
      published++;
    },
    async returnFromBank(payment, parameters, returnOptions = {}) {
      const data = { session_id: payment.action_requirement.session_id, payment_id: payment.id, parameters, returned_at: clock.now().toISOString() };
      await bus.publish([
        eventMessage(checkoutSessionReturnedV1, {
          scope: { merchantId: returnOptions.merchantId ?? MERCHANT.merchantId, mode: payment.livemode ? 'live' : 'test' },
          data,
          id: returnOptions.eventId ?? newId(),
          occurredAt: clock.now(),
        }),
      ]);
      published++;
    },
    async settle() {
      await until(() => consumed >= published);
      // The service's consumer and this observer read the same topic; give the service's handler its turn.
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await app.runner.idle();
        await app.runner.runDue();
        await app.afterSale.idle();
        await app.afterSale.runDue();
      }
    },
    async advance(ms) {
      clock.advance(ms);
      await harness.settle();
    },
    async payOneOff(caller, masked, body = {}, path = '/payments/one-off') {
      const created = await harness.call(caller, 'POST', path, { ...oneOff(), ...body });
      if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
      await harness.submitCard(created.body, masked, { merchantId: caller.merchantId });
      await harness.settle();
      return (await harness.call(caller, 'GET', `/payments/${created.body.id}`)).body;
    },
    async stop() {
      await completions.stop();
      await Promise.all(captured.map((s) => s.stop()));
      await server.close();
      await app.stop();
      if (!options.bus) await bus.close();
      await store.close();
    },
  };
  return harness;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export function eventsOf(harness: Harness, paymentId: string): string[] {
  return harness.events.filter((e) => e.data?.payment_id === paymentId && e.type.startsWith('payment.')).map((e) => e.type);
}

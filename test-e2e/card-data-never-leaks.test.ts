import { rmSync } from 'node:fs';
import { waitFor } from '@vaultline/core';
import { allTopics } from '../libs/contracts/src';
import { deadLetterTopic, type Delivery } from '../libs/bus/src';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { FORWARD_CARDS, runForwardScenario, type ForwardScenarioAnswers } from './support/forward-scenario';
import {
  enableForwardingTo,
  importEnv,
  importWhenStopped,
  registerWebhookEndpoint,
  startImport,
  startImportPlatform,
  type ImportJobView,
  type ImportPlatform,
} from './support/import-scenario';
import {
  accountNumberNeedles,
  distinctiveCodeNeedles,
  isSqliteFile,
  keyedCodeNeedles,
  scanDirectory,
  scanText,
  type Hit,
  type Needle,
} from './support/leak-scan';
import { capturedLogLines } from './support/log-capture';
import { createMerchant, startSystem, type RunningSystem } from './support/merchant-api';
import { LEAK_SCAN_PAYMENT_CARDS, PAYMENT_ENV, runPaymentScenario, type PaymentScenarioOutcome } from './support/payment-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// Every logger of every service (and of the launcher and the bus) writes its final, redacted lines
// into the capture instead of stdout; level, redaction and formatting stay the real ones.
jest.mock('../libs/logger/src/create-logger', () =>
  jest.requireActual<typeof import('./support/log-capture')>('./support/log-capture').capturingLoggerModule(),
);

/**
 * The forwarding scenario, a small automatic import and a payment's path (cards entered in checkout
 * sessions, captured, declined, stored credentials charged again), run with debug logs, then a search for
 * every account number and security code used: in the raw bytes of every SQLite file of DATA_DIR
 * (databases, WAL and shared-memory files), in every message on the bus, and in every log line.
 */
describe('card data never leaks: not into SQLite files, bus messages, logs or webhooks', () => {
  let standIns: DestinationStandIns;
  let platform: ImportPlatform;
  let receiver: WebhookReceiver;
  let running: RunningSystem;
  let forwardAnswers: ForwardScenarioAnswers;
  let importJob: ImportJobView;
  let payments: PaymentScenarioOutcome;
  let needles: Needle[];
  const busMessages: Delivery[] = [];
  const otherOutput: string[] = [];
  let sqliteWhileRunning: { files: string[]; hits: Hit[] };
  let sqliteAfterStop: { files: string[]; hits: Hit[] };

  beforeAll(async () => {
    standIns = await startDestinationStandIns();
    platform = await startImportPlatform(2, 3);
    receiver = await startWebhookReceiver();
    const importCards = platform.paymentMethods.map((pm) => platform.simulator.cardFor(pm)!);
    const paymentCards = Object.values(LEAK_SCAN_PAYMENT_CARDS);
    needles = [
      ...accountNumberNeedles([
        FORWARD_CARDS.visa.number,
        FORWARD_CARDS.amex.number,
        ...importCards.map((card) => card.number),
        ...paymentCards.map((card) => card.number),
      ]),
      ...distinctiveCodeNeedles([FORWARD_CARDS.visa.cvc, FORWARD_CARDS.amex.cvc, ...new Set(paymentCards.map((card) => card.cvc))]),
      ...keyedCodeNeedles(importCards.map((card) => card.cvc)),
    ];

    // Anything written around the logger (console, stdout, stderr) is captured as well.
    const spies = [
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (otherOutput.push(String(chunk)), true)),
      jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (otherOutput.push(String(chunk)), true)),
    ];
    try {
      running = await startSystem({ ...PAYMENT_ENV, ...standIns.forwarderEnv, ...importEnv(platform), LOG_LEVEL: 'debug' }, 'vaultline-leak-');
      enableForwardingTo(platform, running);
      const { system, merchant } = running;
      await registerWebhookEndpoint(merchant, receiver.url, []);
      const other = await createMerchant(system, 'Second merchant', true);

      forwardAnswers = await runForwardScenario(merchant, other, standIns);
      importJob = await importWhenStopped(merchant, (await startImport(merchant)).id);
      payments = await runPaymentScenario(system.baseUrl, merchant);

      // Let every consequence settle: events in the notifier's log, webhooks delivered.
      await waitFor(async () => (await merchant.events('forward.completed')).length >= 5, 10_000, 50);
      await waitFor(() => receiver.received.some((w) => (JSON.parse(w.body) as { type: string }).type === 'import.completed'), 10_000, 50);
      const capturedWebhooks = () => receiver.received.filter((w) => (JSON.parse(w.body) as { type: string }).type === 'payment.captured').length;
      await waitFor(() => capturedWebhooks() >= 3, 10_000, 50);

      // A capturing consumer group on every topic starts at the beginning of each: it sees every message.
      const topics = allTopics().flatMap((topic) => [topic, deadLetterTopic(topic)]);
      const subscription = await system.bus.subscribe({ topics, group: 'e2e-leak-scan', handler: async (delivery) => void busMessages.push(delivery) });
      const expectedAtLeast = importJob.counts.total + 2 /* tokens */ + 5 /* forwards */ + 3 * 2; /* payments: processing, then captured or failed */
      await waitFor(() => busMessages.length >= expectedAtLeast, 10_000, 50);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await subscription.stop();

      sqliteWhileRunning = scanDirectory(running.dataDir, needles, isSqliteFile);
      await system.stop();
      sqliteAfterStop = scanDirectory(running.dataDir, needles, isSqliteFile);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });
  afterAll(async () => {
    if (running) rmSync(running.dataDir, { recursive: true, force: true });
    await receiver?.stop();
    await platform?.simulator.stop();
    await standIns?.stop();
  });

  it('the scenarios really ran: forwards delivered and refused as expected, the import finished, the payments captured or declined', () => {
    expect(forwardAnswers.adyen.status).toBe(200);
    expect(forwardAnswers.checkout.status).toBe(201);
    expect(forwardAnswers.stripe.status).toBe(200);
    expect(forwardAnswers.amexAdyen.status).toBe(200);
    expect(forwardAnswers.refused.status).toBe(403);
    expect(forwardAnswers.otherMerchant.status).toBe(404);
    expect(forwardAnswers.deleted.status).toBe(410);
    expect(importJob).toMatchObject({ state: 'finished', counts: { total: 6, imported: 6, failed: 0 } });
    expect(payments.oneOff).toMatchObject({ status: 'captured', source: { masked_account_number: '555555******4444' } });
    expect(payments.declined).toMatchObject({ status: 'failed', failure_reason: 'card_declined' });
    expect(payments.subsequent).toMatchObject({ status: 'captured', source: { masked_account_number: '222300******3222' } });
    expect(payments.mandateFirst).toMatchObject({
      status: 'captured',
      use_case: 'first_payment',
      payment_method: { type: 'npr_mandate', npr_mandate: { card: { masked_number: '400005******5556' } } },
    });
    expect(payments.mandateCharge).toMatchObject({ status: 'captured', use_case: 'recurring_payment' });
    // The card data really travelled: the stand-ins got it, so its absence elsewhere means something.
    // The needles find it where it legitimately is: in what the destinations received.
    const atDestinations = [...standIns.adyen.received, ...standIns.checkout.received, ...standIns.stripe.received].flatMap((r, i) =>
      scanText(`destination request ${i}`, r.body, needles),
    );
    const found = new Set(atDestinations.map((hit) => hit.needle));
    for (const expected of [FORWARD_CARDS.visa.number, FORWARD_CARDS.amex.number]) expect(found).toContain(`account number "${expected}"`);
    for (const code of [FORWARD_CARDS.visa.cvc, FORWARD_CARDS.amex.cvc]) expect(found).toContain(`security code ${code} as a value`);
  });

  it('no merchant answer and no webhook delivered to the merchant carries an account number or a security code', () => {
    expect(receiver.received.length).toBeGreaterThan(importJob.counts.total);
    expect(receiver.received.some((webhook) => webhook.body.includes(payments.subsequent.id))).toBe(true);
    const hits = [
      ...Object.entries(forwardAnswers).flatMap(([name, answer]) => scanText(`answer ${name}`, answer.text, needles)),
      ...Object.entries(payments).flatMap(([name, payment]) => scanText(`payment ${name}`, JSON.stringify(payment), needles)),
      // Headers and body apart (a scan reports a needle's first place only), and without content-length: the
      // body's size in bytes, checked below, may be a security code's digits (a payment.captured of 538 bytes was).
      ...receiver.received.flatMap((webhook, i) => {
        const { 'content-length': contentLength, ...headers } = webhook.headers;
        expect({ webhook: i, contentLength }).toEqual({ webhook: i, contentLength: String(Buffer.byteLength(webhook.body)) });
        return [...scanText(`webhook ${i} headers`, JSON.stringify(headers), needles), ...scanText(`webhook ${i} body`, webhook.body, needles)];
      }),
    ];
    expect(hits).toEqual([]);
  });

  it('no SQLite file of DATA_DIR (database, WAL, shared memory) holds an account number or a security code, while running or after stop', () => {
    for (const service of ['gateway', 'vault', 'forwarder', 'importer', 'notifier', 'payment-orchestrator', 'bus'])
      expect(sqliteAfterStop.files).toContain(`${service}.db`);
    expect(sqliteWhileRunning.files.some((file) => file.endsWith('-wal'))).toBe(true);

    expect(sqliteWhileRunning.hits).toEqual([]);
    expect(sqliteAfterStop.hits).toEqual([]);
  });

  it('no bus message (key, headers, value) holds an account number or a security code', () => {
    const types = new Set(busMessages.map((m) => (JSON.parse(m.value) as { type: string }).type));
    for (const type of ['token.created', 'token.deleted', 'token.detokenized', 'forward.completed', 'import.started', 'import.completed'])
      expect(types).toContain(type);
    for (const type of ['checkout.session.opened', 'checkout.session.completed', 'payment.processing', 'payment.captured', 'payment.failed'])
      expect(types).toContain(type);

    const hits = busMessages.flatMap((m, i) => scanText(`bus ${m.topic} #${i}`, `${m.key}\n${JSON.stringify(m.headers)}\n${m.value}`, needles));
    expect(hits).toEqual([]);
  });

  it('no log line at debug level, nor anything else written to stdout or stderr, holds an account number or a security code', () => {
    const services = new Set(capturedLogLines.map((line) => (JSON.parse(line) as { service?: string }).service));
    for (const service of ['gateway', 'vault', 'forwarder', 'importer', 'notifier', 'payment-orchestrator']) expect(services).toContain(service);
    expect(capturedLogLines.length).toBeGreaterThan(50);

    const hits = [
      ...capturedLogLines.flatMap((line, i) => scanText(`log line ${i}`, line, needles)),
      ...scanText('stdout/stderr', otherOutput.join(''), needles),
    ];
    expect(hits).toEqual([]);
  });

  it('the captured log lines stay usable: they name the forwards and the import without the card data', () => {
    const text = capturedLogLines.join('');
    expect(text).toMatch(/"service":"forwarder"/);
    expect(text).toMatch(/\/forward/);
    expect(text).toMatch(/\/cde-import/);
    expect(text).toMatch(/"msg":"import finished"/);
  });
});

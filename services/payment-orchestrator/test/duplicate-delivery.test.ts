import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventMessage, type BusMessage } from '@vaultline/bus';
import { endStateOf, expectSameEndStateUnderRedelivery } from '@vaultline/bus/testing';
import { checkoutSessionCompletedV1, type EventData } from '@vaultline/contracts';
import { newId } from '@vaultline/core';
import { CREDENTIALS, PAYMENT_SCHEDULE, PAYMENTS, TRANSACTIONS } from '../src/data/collections';
import { CARDS, MERCHANT, oneOff, recurring, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

/** The simulator settles captures at once and the worker polls rarely: the consumer and the runner it wakes do the work. */
const ENV = { PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: '0' };
const START = '2026-06-01T10:00:00.000Z';

type Completion = EventData<typeof checkoutSessionCompletedV1>;

function completion(payment: Json, masked: string, tokenId = newId()): Completion {
  return {
    session_id: payment.action_requirement.session_id,
    payment_id: payment.id,
    token_id: tokenId,
    card: { masked_account_number: masked, scheme: 'VISA', expiry_month: 12, expiry_year: 2034, cardholder_name: 'Ada Lovelace', submitted_at: START },
  };
}

async function created(harness: Harness, path: string, body: Record<string, unknown>): Promise<Json> {
  const answer = await harness.call(MERCHANT, 'POST', path, body);
  if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe("the payment orchestrator's checkout.session.completed consumer under duplicate and reordered delivery", () => {
  let dir: string;
  let template: string;
  let messages: BusMessage[];

  // The payments the completions are about, created once in an SQLite file that every run starts from a copy of.
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orchestrator-duplicates-'));
    template = join(dir, 'template.db');
    const harness = await startOrchestrator({ storeFile: template, env: ENV, start: START });
    try {
      const matrix = await harness.call(MERCHANT, 'PUT', '/flow-matrix', {
        default_flow: 'simulator_auto_capture',
        rules: [{ name: 'manual', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
      });
      expect(matrix.status).toBe(200);
      const approved = await created(harness, '/payments/one-off', oneOff({ reference: 'dup-approved' }));
      const declined = await created(harness, '/payments/one-off', oneOff({ reference: 'dup-declined' }));
      const initial = await created(harness, '/payments/recurring', recurring({ reference: 'dup-recurring' }));
      const manual = await created(harness, '/payments/one-off', oneOff({ reference: 'manual-dup' }));
      const twice = await created(harness, '/payments/one-off', oneOff({ reference: 'dup-second-card' }));
      const unknown = { id: newId(), action_requirement: { session_id: newId() } };
      const message = (data: Completion) =>
        eventMessage(checkoutSessionCompletedV1, { scope: { merchantId: MERCHANT.merchantId, mode: 'test' }, data, occurredAt: new Date(START) });
      messages = [
        message(completion(approved, CARDS.approved)),
        message(completion(declined, CARDS.declined)),
        message(completion(initial, CARDS.approved)),
        message(completion(manual, CARDS.approved)),
        // The same session completed twice with different cards (two events): the first card is the payment's.
        message(completion(twice, CARDS.approved)),
        message(completion(twice, CARDS.insufficientFunds)),
        // A session the orchestrator never opened: nothing happens, however often.
        message(completion(unknown, CARDS.approved)),
      ];
    } finally {
      await harness.stop();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when every checkout.session.completed arrives two or three times, some concurrently and some after later ones, then payments, transactions, credentials and published payment events are those of single delivery', async () => {
    let runs = 0;
    const report = await expectSameEndStateUnderRedelivery({
      messages,
      start: async (bus) => {
        const storeFile = join(dir, `run-${++runs}.db`);
        copyFileSync(template, storeFile);
        if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${storeFile}-wal`);
        const harness = await startOrchestrator({ storeFile, bus, env: ENV, start: START });
        return {
          // The flows the completions started ran to their end, and their events left the outbox.
          quiet: async () => {
            await harness.app.runner.idle();
            await harness.app.runner.runDue();
            await harness.app.runner.idle();
            return (await harness.store.outbox.pending(1)).length === 0;
          },
          endState: (published) => endStateOf(harness.store, [PAYMENTS, PAYMENT_SCHEDULE, TRANSACTIONS, CREDENTIALS], { published, given: messages }),
          stop: () => harness.stop(),
        };
      },
    });

    expect(report.stats.redelivered).toBeGreaterThanOrEqual(messages.length);
    console.log(`duplicate delivery (payment-orchestrator checkout.session.completed): ${report.summary}`);
  });

  it('when single delivery ran, then the end state is the one the test means: captured, waiting for another card, captured with credentials, authorized, the first card only', async () => {
    const storeFile = join(dir, 'single.db');
    copyFileSync(template, storeFile);
    if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${storeFile}-wal`);
    const harness = await startOrchestrator({ storeFile, env: ENV, start: START });
    try {
      await harness.bus.publish(messages);
      await harness.settle();
      await harness.settle();
      const payments = (await harness.call(MERCHANT, 'GET', '/payments?limit=100')).body.data as Json[];
      const byReference = Object.fromEntries(payments.map((p) => [p.reference, `${p.status}:${p.source?.masked_account_number ?? '-'}`]));
      expect(byReference).toEqual({
        'dup-approved': `captured:${CARDS.approved}`,
        // Declined: one attempt; the payment waits (without a card) for another.
        'dup-declined': 'processing:-',
        'dup-recurring': `captured:${CARDS.approved}`,
        'manual-dup': `authorized:${CARDS.approved}`,
        'dup-second-card': `captured:${CARDS.approved}`,
      });
    } finally {
      await harness.stop();
    }
  });
});

import { waitFor } from '@vaultline/core';
import { paymentProcessingV1 } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import { SYSTEM_SCOPE, type DocumentStore } from '@vaultline/store';
import {
  createEventConsumer,
  deadLetterTopic,
  eventMessage,
  getDeadLetter,
  listDeadLetters,
  listParkedMessages,
  openBus,
  PARKED_OUTBOX_COLLECTION,
  replayDeadLetter,
  unparkMessage,
  type Bus,
  type DeadLetterRecord,
  type ParkedOutboxMessage,
  type Subscription,
} from '../src';
import { aPayment, SCOPE, storeAdapters } from './fixtures';

const logger = createLogger({ service: 'bus-test', level: 'silent' });
const fast = { maxAttempts: 2, retryDelayMs: () => 1 };

describe.each(storeAdapters)('dead letters an operator can list and replay, on the %s', (_name, openStore) => {
  let store: DocumentStore;
  let bus: Bus;
  const consumers: Subscription[] = [];

  beforeEach(async () => {
    store = await openStore();
    bus = await openBus('memory://');
  });

  afterEach(async () => {
    for (const consumer of consumers.splice(0)) await consumer.stop();
    await bus.close();
    await store.close();
  });

  /** A group whose handler fails while `broken.now` is true; `handled` lists the payment ids it handled. */
  async function group(name: string, broken: { now: boolean }) {
    const handled: string[] = [];
    consumers.push(
      await createEventConsumer({
        bus,
        store,
        group: name,
        logger,
        ...fast,
        handlers: {
          'payment.processing': (event) => {
            if (broken.now) throw new Error('the receiving end is down');
            handled.push(event.data.payment_id);
          },
        },
      }),
    );
    return handled;
  }

  const deadLetters = async (filter = {}) => (await listDeadLetters(store, filter, { limit: 10 })).items;

  it('when a handler keeps failing, then the dead letter is kept with its group and masked error, and replayed once fixed it is handled by that group only', async () => {
    const broken = { now: true };
    const failing = await group('notifier', broken);
    const healthy = await group('reports', { now: false });
    const payment = aPayment();
    await bus.publish([eventMessage(paymentProcessingV1, { scope: SCOPE, data: payment })]);

    await waitFor(async () => (await deadLetters()).length === 1, 10_000);
    await waitFor(() => healthy.length === 1, 10_000);
    const [dead] = (await deadLetters()) as [DeadLetterRecord];
    expect(dead).toMatchObject({ group: 'notifier', event_type: 'payment.processing', attempts: 2, state: 'dead', error: 'Error: the receiving end is down' });
    expect(failing).toEqual([]);

    const stillBroken = await replayDeadLetter(store, dead.id, () => new Date());
    expect(stillBroken).toMatchObject({ state: 'dead', replays: [{ outcome: 'failed', error: 'Error: the receiving end is down' }] });

    broken.now = false;
    const replayed = await replayDeadLetter(store, dead.id, () => new Date('2026-06-01T12:00:00.000Z'));
    expect(replayed).toMatchObject({ state: 'replayed', replayed_at: '2026-06-01T12:00:00.000Z' });
    expect(replayed.replays.map((replay) => replay.outcome)).toEqual(['failed', 'handled']);
    expect(failing).toEqual([payment.payment_id]);
    expect(healthy).toEqual([payment.payment_id]);
    expect(await deadLetters({ state: 'dead' })).toEqual([]);
    // The bus kept it too.
    expect(deadLetterTopic(paymentProcessingV1.topic)).toBe(`${paymentProcessingV1.topic}.dead-letter`);
  });

  it('when a replayed dead letter is replayed again, then 409 dead_letter_already_replayed; an unknown one 404 dead_letter_not_found', async () => {
    const broken = { now: true };
    await group('notifier', broken);
    await bus.publish([eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() })]);
    await waitFor(async () => (await deadLetters()).length === 1, 10_000);
    const [dead] = (await deadLetters()) as [DeadLetterRecord];
    broken.now = false;
    await replayDeadLetter(store, dead.id, () => new Date());

    await expect(replayDeadLetter(store, dead.id, () => new Date())).rejects.toMatchObject({ status: 409, code: 'dead_letter_already_replayed' });
    await expect(getDeadLetter(store, '00000000-0000-8000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'dead_letter_not_found' });
  });

  it('when the same message fails again after a redelivery, then it is one dead letter, not two', async () => {
    await group('notifier', { now: true });
    const message = eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() });
    await bus.publish([message]);
    await waitFor(async () => (await deadLetters()).length === 1, 10_000);
    const first = (await deadLetters())[0]!.failed_at;
    await bus.publish([message]);
    // The redelivery is one the group has not processed (it failed): it fails again and updates the record.
    await waitFor(async () => (await deadLetters())[0]!.failed_at !== first, 10_000);
    expect(await deadLetters()).toHaveLength(1);
  });

  it('when a parked outbox message is unparked, then it is in the outbox again and no longer parked; an unknown one 404 parked_message_not_found', async () => {
    await store.register({ name: PARKED_OUTBOX_COLLECTION });
    await store.transaction((uow) =>
      uow.insert<ParkedOutboxMessage>(PARKED_OUTBOX_COLLECTION, {
        id: '11111111-1111-4111-8111-111111111111',
        merchant_id: SYSTEM_SCOPE,
        topic: 'payments',
        key: 'pay_1',
        value: '{"id":"e1"}',
        headers: { 'event-id': 'e1' },
        error: 'KafkaJSError: message too large',
        attempts: 20,
        parked_at: '2026-06-01T10:00:00.000Z',
      }),
    );
    expect((await listParkedMessages(store, { limit: 10 })).items).toHaveLength(1);

    await unparkMessage(store, '11111111-1111-4111-8111-111111111111');

    expect((await listParkedMessages(store, { limit: 10 })).items).toEqual([]);
    expect((await store.outbox.pending(10)).map((pending) => pending.message)).toEqual([
      { topic: 'payments', key: 'pay_1', value: '{"id":"e1"}', headers: { 'event-id': 'e1' } },
    ]);
    await expect(unparkMessage(store, '11111111-1111-4111-8111-111111111111')).rejects.toMatchObject({ status: 404, code: 'parked_message_not_found' });
  });
});

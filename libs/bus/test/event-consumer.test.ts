import { sleep, waitFor } from '@vaultline/core';
import { paymentCapturedV1, paymentProcessingV1, tokenCreatedV1, tokenDeletedV1 } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import type { DocumentStore, StoredDocument } from '@vaultline/store';
import {
  createEventConsumer,
  DEAD_LETTER_HEADERS,
  deadLetterTopic,
  eventMessage,
  openBus,
  type Bus,
  type Delivery,
  type EventHandlers,
  type Subscription,
} from '../src';
import { aPayment, SCOPE, storeAdapters } from './fixtures';

interface Notice extends StoredDocument {
  event_id: string;
  payment_id: string;
}

const logger = createLogger({ service: 'bus-test', level: 'silent' });
const GROUP = 'notifier';

describe.each(storeAdapters)('createEventConsumer on the %s', (_name, openStore) => {
  let store: DocumentStore;
  let bus: Bus;
  let consumer: Subscription | undefined;

  beforeEach(async () => {
    store = await openStore();
    await store.register({ name: 'notices', indexes: [{ fields: ['event_id'], unique: true }] });
    bus = await openBus('memory://');
  });

  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
    await bus.close();
    await store.close();
  });

  const notices = () => store.collection<Notice>('notices').count(SCOPE, {});

  it('when an event is delivered twice, then its effect is applied once', async () => {
    const calls: string[] = [];
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      handlers: {
        'payment.processing': (event, uow) => {
          calls.push(event.id);
          uow.insert<Notice>('notices', {
            id: `notice_${calls.length}`,
            merchant_id: event.merchant_id,
            mode: 'test',
            event_id: `${event.id}_${calls.length}`,
            payment_id: event.data.payment_id,
          });
        },
      },
    });
    const message = eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() });

    await bus.publish([message, message]);
    await bus.publish([eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() })]);

    await waitFor(async () => (await notices()) === 2);
    await sleep(30);
    expect(calls).toHaveLength(2);
    expect(await notices()).toBe(2);
  });

  it('when a handler changes nothing, then nothing is committed and a redelivery is judged afresh', async () => {
    const seen: string[] = [];
    let interested = false;
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      handlers: {
        'payment.processing': (event, uow) => {
          seen.push(event.id);
          if (interested)
            uow.insert<Notice>('notices', {
              id: `notice_${event.id}`,
              merchant_id: event.merchant_id,
              mode: 'test',
              event_id: event.id,
              payment_id: event.data.payment_id,
            });
        },
      },
    });
    const message = eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() });
    const eventId = (JSON.parse(message.value) as { id: string }).id;

    await bus.publish([message]);
    await waitFor(() => seen.length === 1);
    await sleep(20);
    expect(await store.isProcessed(GROUP, eventId)).toBe(false);
    expect(await notices()).toBe(0);

    interested = true;
    await bus.publish([message, message]);
    await waitFor(async () => (await notices()) === 1);
    await sleep(30);
    expect(seen).toHaveLength(2);
    expect(await store.isProcessed(GROUP, eventId)).toBe(true);
    expect(await notices()).toBe(1);
  });

  it('when two deliveries of one event race, then the one that commits second counts as already processed', async () => {
    const secondBus = await openBus('memory://');
    let arrived = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const dead: Delivery[] = [];
    const handlers: EventHandlers = {
      'payment.processing': async (event, uow) => {
        arrived++;
        await gate;
        uow.insert<Notice>('notices', {
          id: `notice_${arrived}_${Math.random()}`,
          merchant_id: event.merchant_id,
          mode: 'test',
          event_id: `${event.id}_${Math.random()}`,
          payment_id: 'p',
        });
      },
    };
    consumer = await createEventConsumer({ bus, store, group: GROUP, logger, handlers, maxAttempts: 1 });
    const other = await createEventConsumer({ bus: secondBus, store, group: GROUP, logger, handlers, maxAttempts: 1 });
    await secondBus.subscribe({ topics: [deadLetterTopic(paymentProcessingV1.topic)], group: 'dlq', handler: async (d) => void dead.push(d) });
    await bus.subscribe({ topics: [deadLetterTopic(paymentProcessingV1.topic)], group: 'dlq', handler: async (d) => void dead.push(d) });
    const message = eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment() });

    await bus.publish([message]);
    await secondBus.publish([message]);
    await waitFor(() => arrived === 2);
    release();

    await waitFor(async () => (await notices()) === 1);
    await sleep(30);
    expect(await notices()).toBe(1);
    expect(dead).toEqual([]);
    await other.stop();
    await secondBus.close();
  });

  it('when the handler throws, then nothing of its unit of work is committed and the event is retried', async () => {
    const attempts: number[] = [];
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      retryDelayMs: () => 5,
      handlers: {
        'payment.captured': (event, uow) => {
          attempts.push(attempts.length + 1);
          uow.insert<Notice>('notices', {
            id: `notice_${attempts.length}`,
            merchant_id: event.merchant_id,
            mode: 'test',
            event_id: event.id,
            payment_id: event.data.payment_id,
          });
          if (attempts.length === 1) throw new Error('downstream timeout');
        },
      },
    });

    await bus.publish([eventMessage(paymentCapturedV1, { scope: SCOPE, data: aPayment({ status: 'captured', amount: { requested: 5, captured: 5 } }) })]);

    await waitFor(async () => (await notices()) === 1);
    expect(attempts).toEqual([1, 2]);
    expect(await store.collection<Notice>('notices').get(SCOPE, 'notice_1')).toBeNull();
  });

  it('when an event is invalid, then it lands in the dead-letter topic after one attempt and later events flow', async () => {
    const dead: Delivery[] = [];
    const handled: string[] = [];
    await bus.subscribe({ topics: [deadLetterTopic(paymentProcessingV1.topic)], group: 'dlq', handler: async (d) => void dead.push(d) });
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      handlers: { 'payment.processing': (event) => void handled.push(event.data.payment_id) },
    });
    const valid = eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment({ payment_id: 'pay_1' }) });
    const envelope = JSON.parse(valid.value) as { data: Record<string, unknown> };
    const invalid = { ...valid, value: JSON.stringify({ ...envelope, data: { ...envelope.data, amount: { requested: -1 } } }) };

    await bus.publish([invalid, { ...valid, value: 'not json at all' }]);
    await bus.publish([eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment({ payment_id: 'pay_1' }) })]);

    await waitFor(() => dead.length === 2 && handled.length === 1);
    expect(dead.map((d) => d.headers[DEAD_LETTER_HEADERS.attempts])).toEqual(['1', '1']);
    expect(dead[0]?.headers[DEAD_LETTER_HEADERS.error]).toContain('invalid_event: payment.processing data invalid at amount.requested');
    expect(dead[1]?.headers[DEAD_LETTER_HEADERS.error]).toContain('event is not JSON');
    expect(handled).toEqual(['pay_1']);
  });

  it('when the topic carries a type this consumer does not handle, then it is acknowledged and skipped', async () => {
    const dead: Delivery[] = [];
    const created: string[] = [];
    await bus.subscribe({ topics: [deadLetterTopic(tokenCreatedV1.topic)], group: 'dlq', handler: async (d) => void dead.push(d) });
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      handlers: { 'token.created': (event) => void created.push(event.data.token_id) },
    });
    const tokenCreated = {
      token_id: 'tok_1',
      business_key: null,
      scheme: 'visa',
      fingerprint: 'fp',
      source: 'api' as const,
      updated: false,
      correlation_id: null,
    };

    await bus.publish([
      eventMessage(tokenDeletedV1, { scope: SCOPE, data: { token_id: 'tok_1' } }),
      eventMessage(tokenCreatedV1, { scope: SCOPE, data: tokenCreated }),
    ]);

    await waitFor(() => created.length === 1);
    expect(created).toEqual(['tok_1']);
    expect(dead).toEqual([]);
  });

  it('when the consumer says an event is none of its business, then it is acknowledged unvalidated and unrecorded, and the others are handled', async () => {
    const dead: Delivery[] = [];
    const handled: string[] = [];
    const looked: string[] = [];
    await bus.subscribe({ topics: [deadLetterTopic(tokenCreatedV1.topic)], group: 'dlq', handler: async (d) => void dead.push(d) });
    const isProcessed = store.isProcessed.bind(store);
    store.isProcessed = (group: string, eventId: string) => {
      looked.push(eventId);
      return isProcessed(group, eventId);
    };
    consumer = await createEventConsumer({
      bus,
      store,
      group: GROUP,
      logger,
      interested: (event) => typeof event.data === 'object' && event.data !== null && (event.data as { source?: unknown }).source === 'cde_import',
      handlers: {
        'token.created': (event, uow) => {
          handled.push(event.data.token_id);
          uow.insert<Notice>('notices', {
            id: `notice_${event.data.token_id}`,
            merchant_id: event.merchant_id,
            mode: 'test',
            event_id: event.id,
            payment_id: '',
          });
        },
      },
    });
    const created = (tokenId: string, source: 'api' | 'cde_import') => ({
      token_id: tokenId,
      business_key: null,
      scheme: 'visa',
      fingerprint: 'fp',
      source,
      updated: false,
      correlation_id: null,
    });
    const ignored = eventMessage(tokenCreatedV1, { scope: SCOPE, data: created('tok_api', 'api') });
    const imported = eventMessage(tokenCreatedV1, { scope: SCOPE, data: created('tok_import', 'cde_import') });
    const invalidIgnored = { ...ignored, value: ignored.value.replace('"fingerprint":"fp"', '"fingerprint":42') };

    await bus.publish([ignored, invalidIgnored, imported]);

    await waitFor(() => handled.length === 1);
    await sleep(30);
    expect(handled).toEqual(['tok_import']);
    expect(looked).toEqual([JSON.parse(imported.value).id]);
    expect(dead).toEqual([]);
  });

  it('when a handler is registered for an unknown event type, then creating the consumer fails', async () => {
    await expect(createEventConsumer({ bus, store, group: GROUP, logger, handlers: { 'payment.exploded': () => undefined } as never })).rejects.toThrow(
      'unknown event types payment.exploded',
    );
  });
});

import { MetricsRegistry } from '@vaultline/metrics';
import { waitFor } from '@vaultline/core';
import { paymentProcessingV1, parseEnvelope } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import type { DocumentStore, StoredDocument } from '@vaultline/store';
import { SYSTEM_SCOPE } from '@vaultline/store';
import {
  eventMessage,
  openBus,
  PARKED_OUTBOX_COLLECTION,
  startOutboxRelay,
  type Bus,
  type BusMessage,
  type Delivery,
  type OutboxRelay,
  type ParkedOutboxMessage,
} from '../src';
import { aPayment, MERCHANT, SCOPE, storeAdapters } from './fixtures';

interface Payment extends StoredDocument {
  status: string;
}

const logger = createLogger({ service: 'bus-test', level: 'silent' });

/** A bus whose publish fails the first `failures` times, as a broker outage would. */
function flakyBus(inner: Bus, failures: number): Bus & { calls: number } {
  const flaky = {
    calls: 0,
    ensureTopics: (topics: string[]) => inner.ensureTopics(topics),
    publish: async (messages: BusMessage[]) => {
      flaky.calls++;
      if (flaky.calls <= failures) throw new Error('broker unavailable');
      await inner.publish(messages);
    },
    subscribe: inner.subscribe.bind(inner),
    ping: () => inner.ping(),
    health: () => inner.health(),
    consumerLag: (groups: Array<{ group: string; topics: string[] }>) => inner.consumerLag(groups),
    close: () => inner.close(),
  };
  return flaky;
}

/** A bus that works, but refuses every message of one topic (a topic it cannot create, a message too large…). */
function refusingBus(inner: Bus, refusedTopic: string, down = false): Bus & { refused: number } {
  const refusing = {
    refused: 0,
    ensureTopics: (topics: string[]) => inner.ensureTopics(topics),
    publish: async (messages: BusMessage[]) => {
      if (down || messages.some((message) => message.topic === refusedTopic)) {
        refusing.refused++;
        throw new Error(down ? 'broker unavailable' : 'This server does not host this topic-partition');
      }
      await inner.publish(messages);
    },
    subscribe: inner.subscribe.bind(inner),
    ping: async () => {
      if (down) throw new Error('broker unavailable');
      await inner.ping();
    },
    health: () => inner.health(),
    consumerLag: (groups: Array<{ group: string; topics: string[] }>) => inner.consumerLag(groups),
    close: () => inner.close(),
  };
  return refusing;
}

describe.each(storeAdapters)('outbox relay on the %s', (_name, openStore) => {
  let store: DocumentStore;
  let bus: Bus;
  let relay: OutboxRelay | undefined;
  let received: Delivery[];

  beforeEach(async () => {
    store = await openStore();
    await store.register({ name: 'payments' });
    bus = await openBus('memory://');
    received = [];
    await bus.subscribe({ topics: [paymentProcessingV1.topic], group: 'observer', handler: async (d) => void received.push(d) });
  });

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await bus.close();
    await store.close();
  });

  const createPayment = (id: string) =>
    store.transaction((uow) => {
      uow.insert<Payment>('payments', { id, merchant_id: MERCHANT, mode: 'test' as const, status: 'processing' });
      uow.publish(eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment({ payment_id: id }) }));
    });

  it('when a unit of work commits a state change with its event, then the relay publishes the event and empties the outbox', async () => {
    relay = startOutboxRelay({ store, bus, logger, pollIntervalMs: 10_000 });

    await createPayment('pay_1');

    await waitFor(() => received.length === 1);
    const event = parseEnvelope((received[0] as Delivery).value);
    expect(event).toMatchObject({ type: 'payment.processing', merchant_id: MERCHANT, livemode: false, data: { payment_id: 'pay_1' } });
    expect(received[0]?.key).toBe('pay_1');
    await relay.flush();
    expect(await store.outbox.pending(10)).toEqual([]);
  });

  it('when a commit wakes the relay, then the caller waiting on that commit runs before the relay reads the outbox', async () => {
    relay = startOutboxRelay({ store, bus, logger, pollIntervalMs: 10_000 });
    await relay.flush();
    const order: string[] = [];
    const pending = store.outbox.pending.bind(store.outbox);
    store.outbox.pending = (limit: number) => {
      order.push('relay reads the outbox');
      return pending(limit);
    };

    await createPayment('pay_1');
    order.push('caller continues after its commit');
    // Continuations of the caller (the rest of a request) get the microtasks after the commit too.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    order.push('caller finished its turn');

    await waitFor(() => received.length === 1);
    expect(order).toEqual(['caller continues after its commit', 'caller finished its turn', 'relay reads the outbox']);
  });

  it('when a unit of work fails after adding its event, then neither the state change nor the event is published', async () => {
    relay = startOutboxRelay({ store, bus, logger });

    await expect(
      store.transaction((uow) => {
        uow.insert<Payment>('payments', { id: 'pay_failed', merchant_id: MERCHANT, mode: 'test' as const, status: 'processing' });
        uow.publish(eventMessage(paymentProcessingV1, { scope: SCOPE, data: aPayment({ payment_id: 'pay_failed' }) }));
        throw new Error('validation failed later in the use case');
      }),
    ).rejects.toThrow('validation failed');
    await createPayment('pay_ok');

    await waitFor(() => received.length === 1);
    await relay.flush();
    expect(received.map((d) => d.key)).toEqual(['pay_ok']);
    expect(await store.collection<Payment>('payments').get(SCOPE, 'pay_failed')).toBeNull();
  });

  it('when the bus refuses to publish for a while, then the relay retries and every message arrives in commit order', async () => {
    const flaky = flakyBus(bus, 2);
    for (let n = 1; n <= 5; n++) await createPayment(`pay_${n}`);

    relay = startOutboxRelay({ store, bus: flaky, logger, batchSize: 2 });
    await relay.flush();

    await waitFor(() => received.length === 5);
    expect(received.map((d) => d.key)).toEqual(['pay_1', 'pay_2', 'pay_3', 'pay_4', 'pay_5']);
    expect(flaky.calls).toBe(2 + 3);
    expect(await store.outbox.pending(10)).toEqual([]);
  });

  it('when the bus keeps refusing one message while it works, then that message is parked with its error and the messages behind it are published', async () => {
    const refusing = refusingBus(bus, 'vault.detokenizations');
    await store.transaction((uow) => uow.publish({ topic: 'vault.detokenizations', key: 'tok_1', value: '{"type":"token.detokenized"}', headers: {} }));
    for (let n = 1; n <= 3; n++) await createPayment(`pay_${n}`);

    relay = startOutboxRelay({ store, bus: refusing, logger, parkAfterAttempts: 3 });

    await waitFor(() => received.length === 3, 5_000);
    expect(received.map((d) => d.key)).toEqual(['pay_1', 'pay_2', 'pay_3']);
    expect(relay.parkedCount()).toBe(1);
    const parked = await store.collection<ParkedOutboxMessage>(PARKED_OUTBOX_COLLECTION).list(SYSTEM_SCOPE, {}, { limit: 10 });
    expect(parked.items).toEqual([
      expect.objectContaining({
        topic: 'vault.detokenizations',
        key: 'tok_1',
        value: '{"type":"token.detokenized"}',
        attempts: 3,
        error: expect.stringContaining('does not host'),
      }),
    ]);
    await relay.flush();
    expect(await store.outbox.pending(10)).toEqual([]);
  });

  it('when the bus is down for every message, then nothing is parked and the outbox keeps its messages', async () => {
    const down = refusingBus(bus, 'none', true);
    await createPayment('pay_1');

    relay = startOutboxRelay({ store, bus: down, logger, parkAfterAttempts: 2 });

    await waitFor(() => down.refused >= 4, 5_000);
    expect(relay.parkedCount()).toBe(0);
    expect((await store.outbox.pending(10)).map((p) => p.message.key)).toEqual(['pay_1']);
  });

  it('when the relay is stopped, then messages committed afterwards stay in the outbox for the next relay', async () => {
    relay = startOutboxRelay({ store, bus, logger });
    await relay.stop();
    relay = undefined;

    await createPayment('pay_later');

    expect((await store.outbox.pending(10)).map((p) => p.message.key)).toEqual(['pay_later']);
    relay = startOutboxRelay({ store, bus, logger });
    await relay.flush();
    await waitFor(() => received.length === 1);
  });

  it('when the relay is stopped right after a commit (SIGTERM drain), then it publishes the committed message before it stops', async () => {
    relay = startOutboxRelay({ store, bus, logger, pollIntervalMs: 10_000 });
    await relay.flush();

    await createPayment('pay_just_answered');
    await relay.stop();
    relay = undefined;

    expect(await store.outbox.pending(10)).toEqual([]);
    await waitFor(() => received.length === 1);
  });

  it('when the bus is down, then vaultline_outbox_backlog counts the committed messages waiting; a parked message counts as a dead letter of group "outbox"', async () => {
    const registry = new MetricsRegistry();
    const down = refusingBus(bus, 'none', true);
    await createPayment('pay_1');
    await createPayment('pay_2');
    relay = startOutboxRelay({ store, bus: down, logger, metrics: registry.forService('vault'), flushOnStopMs: 0 });

    await waitFor(() => down.refused >= 1);
    expect(await registry.render()).toContain('vaultline_outbox_backlog{service="vault"} 2');
    await relay.stop();

    const refusing = refusingBus(bus, 'vault.detokenizations');
    await store.transaction((uow) => uow.publish({ topic: 'vault.detokenizations', key: 'tok_1', value: '{}', headers: {} }));
    relay = startOutboxRelay({ store, bus: refusing, logger, metrics: registry.forService('vault'), parkAfterAttempts: 2 });
    await waitFor(() => received.length === 2, 5_000);
    await relay.flush();
    const text = await registry.render();
    expect(text).toContain('vaultline_outbox_backlog{service="vault"} 0');
    expect(text).toContain('vaultline_bus_dead_letters_total{service="vault",group="outbox",topic="vault.detokenizations"} 1');
  });
});

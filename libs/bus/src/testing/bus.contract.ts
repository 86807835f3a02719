import { AppError, newId, sleep, waitFor } from '@vaultline/core';
import { DEAD_LETTER_HEADERS, deadLetterTopic, type Bus, type BusMessage, type Delivery, type Subscription } from '../index';

export interface OpenedBus {
  bus: Bus;
  /**
   * For durable adapters: opens a new bus on the same data (file, server). The suite closes the
   * first bus before calling it and closes the reopened one itself.
   */
  reopen?: () => Promise<Bus>;
  /** Closes what is still open and removes the data. */
  cleanup(): Promise<void>;
}

const fast = { retryDelayMs: () => 5 };
/** Generous: waitFor returns as soon as the condition holds; brokers (Kafka group joins) need seconds. */
const DELIVERY_TIMEOUT_MS = 20_000;

const messageOf = (topic: string, key: string, n: number, headers: Record<string, string> = {}): BusMessage => ({
  topic,
  key,
  value: JSON.stringify({ n }),
  headers: { 'x-n': String(n), ...headers },
});

const numberOf = (delivery: Delivery): number => (JSON.parse(delivery.value) as { n: number }).n;

export interface BusContractOptions {
  /** Runs the restart cases (they need `reopen`); registered as skipped otherwise. */
  durable?: boolean;
}

/**
 * The Bus contract (libs/bus/src/bus.port.ts), run against every adapter. `open` gives a fresh
 * bus; every case uses topics and groups of its own, so adapters on a shared server need no reset.
 */
export function busContract(adapterName: string, open: () => Promise<OpenedBus>, options: BusContractOptions = {}): void {
  describe(`Bus contract: ${adapterName}`, () => {
    let opened: OpenedBus;
    let bus: Bus;
    let subscriptions: Subscription[];
    let topic: string;
    let group: string;

    beforeEach(async () => {
      opened = await open();
      bus = opened.bus;
      subscriptions = [];
      const suffix = newId();
      topic = `contract.${suffix}`;
      group = `group-${suffix}`;
      await bus.ensureTopics([topic]);
    });

    afterEach(async () => {
      await Promise.all(subscriptions.map((subscription) => subscription.stop().catch(() => undefined)));
      await bus.close().catch(() => undefined);
      await opened.cleanup();
    });

    const subscribe = async (options: Parameters<Bus['subscribe']>[0]): Promise<Subscription> => {
      const subscription = await bus.subscribe(options);
      subscriptions.push(subscription);
      return subscription;
    };

    it('when a message is published, then a subscriber of its topic receives its key, value and headers on attempt 1', async () => {
      const received: Delivery[] = [];
      await subscribe({ topics: [topic], group, handler: async (delivery) => void received.push(delivery) });

      await bus.publish([messageOf(topic, 'order-1', 1, { 'event-type': 'test.happened' })]);

      await waitFor(() => received.length === 1, DELIVERY_TIMEOUT_MS);
      expect(received[0]).toEqual({
        topic,
        key: 'order-1',
        value: JSON.stringify({ n: 1 }),
        headers: { 'x-n': '1', 'event-type': 'test.happened' },
        attempt: 1,
        lastAttempt: false,
      });
      await expect(bus.ping()).resolves.toBeUndefined();
    });

    it('when two groups subscribe to a topic, then each group receives every message', async () => {
      const byGroup: Record<string, number[]> = { a: [], b: [] };
      await subscribe({ topics: [topic], group: `${group}-a`, handler: async (d) => void byGroup.a?.push(numberOf(d)) });
      await subscribe({ topics: [topic], group: `${group}-b`, handler: async (d) => void byGroup.b?.push(numberOf(d)) });

      await bus.publish([1, 2, 3, 4, 5].map((n) => messageOf(topic, `key-${n}`, n)));

      await waitFor(() => byGroup.a?.length === 5 && byGroup.b?.length === 5, DELIVERY_TIMEOUT_MS);
      expect([...(byGroup.a ?? [])].sort()).toEqual([1, 2, 3, 4, 5]);
      expect([...(byGroup.b ?? [])].sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('when two members of one group subscribe, then they share the messages and each message is handled once', async () => {
      const handledBy = new Map<number, string[]>();
      const member = (name: string) => async (delivery: Delivery) => {
        handledBy.set(numberOf(delivery), [...(handledBy.get(numberOf(delivery)) ?? []), name]);
        await sleep(2);
      };
      await subscribe({ topics: [topic], group, handler: member('first') });
      await subscribe({ topics: [topic], group, handler: member('second') });

      for (let n = 0; n < 40; n++) await bus.publish([messageOf(topic, `key-${n}`, n)]);

      await waitFor(() => handledBy.size === 40, DELIVERY_TIMEOUT_MS);
      await sleep(50); // a duplicate would show up right after the last first delivery
      expect([...handledBy.values()].every((members) => members.length === 1)).toBe(true);
      const members = new Set([...handledBy.values()].flat());
      expect(members).toEqual(new Set(['first', 'second']));
    });

    it('when two members of one group subscribe to two topics, then every message of both topics is handled once', async () => {
      const second = `${topic}.second`;
      await bus.ensureTopics([second]);
      const handledBy = new Map<string, string[]>();
      const member = (name: string) => async (delivery: Delivery) => {
        const id = `${delivery.topic}#${numberOf(delivery)}`;
        handledBy.set(id, [...(handledBy.get(id) ?? []), name]);
      };
      await subscribe({ topics: [topic, second], group, handler: member('first') });
      await subscribe({ topics: [topic, second], group, handler: member('second') });

      for (let n = 0; n < 20; n++) await bus.publish([messageOf(topic, `key-${n}`, n), messageOf(second, `key-${n}`, n)]);

      await waitFor(() => handledBy.size === 40, DELIVERY_TIMEOUT_MS);
      await sleep(50);
      expect([...handledBy.values()].every((members) => members.length === 1)).toBe(true);
      expect([...handledBy.keys()].filter((id) => id.startsWith(`${second}#`))).toHaveLength(20);
      expect(bus.health().failing).toEqual([]);
    });

    it('when a group consumes some topics, then subscribing the same group to other topics is refused', async () => {
      await subscribe({ topics: [topic], group, handler: async () => undefined });

      await expect(bus.subscribe({ topics: [topic, `${topic}.other`], group, handler: async () => undefined })).rejects.toThrow(/same topics/);
    });

    it('when 200 messages over 10 keys are published while the handler is slow for some keys, then each key arrives in publish order', async () => {
      const seen = new Map<string, number[]>();
      await subscribe({
        topics: [topic],
        group,
        handler: async (delivery) => {
          if (delivery.key === 'key-0' || delivery.key === 'key-3') await sleep(3);
          seen.set(delivery.key, [...(seen.get(delivery.key) ?? []), numberOf(delivery)]);
        },
      });

      const messages = Array.from({ length: 200 }, (_, n) => messageOf(topic, `key-${n % 10}`, n));
      for (let start = 0; start < 200; start += 25) await bus.publish(messages.slice(start, start + 25));

      await waitFor(() => [...seen.values()].reduce((sum, list) => sum + list.length, 0) === 200, DELIVERY_TIMEOUT_MS);
      for (let k = 0; k < 10; k++) {
        expect(seen.get(`key-${k}`)).toEqual(messages.filter((m) => m.key === `key-${k}`).map((m) => (JSON.parse(m.value) as { n: number }).n));
      }
    });

    it('when a handler throws, then it gets the same message again with attempt 2, 3…', async () => {
      const attempts: number[] = [];
      await subscribe({
        topics: [topic],
        group,
        ...fast,
        handler: async (delivery) => {
          attempts.push(delivery.attempt);
          if (delivery.attempt < 3) throw new Error('temporarily unavailable');
        },
      });

      await bus.publish([messageOf(topic, 'key-1', 1)]);

      await waitFor(() => attempts.length === 3, DELIVERY_TIMEOUT_MS);
      await sleep(30);
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('when a handler keeps throwing, then the message goes to <topic>.dead-letter with error and attempts headers, and later messages flow', async () => {
      const dead: Delivery[] = [];
      const handled: number[] = [];
      await subscribe({ topics: [deadLetterTopic(topic)], group: `${group}-dlq`, handler: async (d) => void dead.push(d) });
      await subscribe({
        topics: [topic],
        group,
        maxAttempts: 3,
        ...fast,
        handler: async (delivery) => {
          if (numberOf(delivery) === 1) throw new Error('card 4111 1111 1111 1111 was declined');
          handled.push(numberOf(delivery));
        },
      });

      await bus.publish([messageOf(topic, 'key-1', 1)]);
      await waitFor(() => dead.length === 1, DELIVERY_TIMEOUT_MS);
      await bus.publish([messageOf(topic, 'key-1', 2)]);

      await waitFor(() => handled.length === 1, DELIVERY_TIMEOUT_MS);
      expect(handled).toEqual([2]);
      const letter = dead[0] as Delivery;
      expect(letter.key).toBe('key-1');
      expect(letter.value).toBe(JSON.stringify({ n: 1 }));
      expect(letter.headers['x-n']).toBe('1');
      expect(letter.headers[DEAD_LETTER_HEADERS.attempts]).toBe('3');
      expect(letter.headers[DEAD_LETTER_HEADERS.group]).toBe(group);
      expect(letter.headers[DEAD_LETTER_HEADERS.error]).toContain('was declined');
      expect(letter.headers[DEAD_LETTER_HEADERS.error]).not.toMatch(/4111 1111 1111 1111|4111111111111111/);
      expect(Number.isNaN(Date.parse(letter.headers[DEAD_LETTER_HEADERS.failedAt] ?? ''))).toBe(false);
    });

    it('when a handler throws a non-retryable AppError, then the message is dead-lettered after the first attempt', async () => {
      const dead: Delivery[] = [];
      const attempts: number[] = [];
      await subscribe({ topics: [deadLetterTopic(topic)], group: `${group}-dlq`, handler: async (d) => void dead.push(d) });
      await subscribe({
        topics: [topic],
        group,
        ...fast,
        handler: async (delivery) => {
          attempts.push(delivery.attempt);
          throw new AppError('invalid_event', 422, 'event data invalid at amount');
        },
      });

      await bus.publish([messageOf(topic, 'key-1', 1)]);

      await waitFor(() => dead.length === 1, DELIVERY_TIMEOUT_MS);
      expect(attempts).toEqual([1]);
      expect(dead[0]?.headers[DEAD_LETTER_HEADERS.attempts]).toBe('1');
      expect(dead[0]?.headers[DEAD_LETTER_HEADERS.error]).toContain('invalid_event');
    });

    it('when a subscription stops, then it receives nothing more', async () => {
      const received: number[] = [];
      const subscription = await subscribe({ topics: [topic], group, handler: async (d) => void received.push(numberOf(d)) });
      await bus.publish([messageOf(topic, 'key-1', 1)]);
      await waitFor(() => received.length === 1, DELIVERY_TIMEOUT_MS);

      await subscription.stop();
      await bus.publish([messageOf(topic, 'key-1', 2)]);

      await sleep(100);
      expect(received).toEqual([1]);
    });

    it('when messages were published before a group first subscribed, then the group gets them from the beginning', async () => {
      await bus.publish([1, 2, 3].map((n) => messageOf(topic, 'key-1', n)));

      const received: number[] = [];
      await subscribe({ topics: [topic], group, handler: async (d) => void received.push(numberOf(d)) });

      await waitFor(() => received.length === 3, DELIVERY_TIMEOUT_MS);
      expect(received).toEqual([1, 2, 3]);
    });

    describe('durable adapters', () => {
      const durable = (name: string, test: () => Promise<void>) =>
        (options.durable ? it : it.skip)(name, async () => {
          if (!opened.reopen) throw new Error(`${adapterName}: a durable adapter's open() must return reopen`);
          await test();
        });

      durable('when a message was not acknowledged when the bus closed, then it is delivered again after reopening', async () => {
        const firstAttempts: number[] = [];
        await bus.subscribe({
          topics: [topic],
          group,
          retryDelayMs: () => 60_000,
          handler: async (delivery) => {
            firstAttempts.push(delivery.attempt);
            throw new Error('crash before acknowledging');
          },
        });
        await bus.publish([messageOf(topic, 'key-1', 1)]);
        await waitFor(() => firstAttempts.length === 1, DELIVERY_TIMEOUT_MS);

        await bus.close();
        bus = await (opened.reopen as () => Promise<Bus>)();
        const received: number[] = [];
        await subscribe({ topics: [topic], group, handler: async (d) => void received.push(numberOf(d)) });

        await waitFor(() => received.length === 1, DELIVERY_TIMEOUT_MS);
        expect(received).toEqual([1]);
      });

      durable('when messages are published while nobody subscribed, then a group that subscribes later gets them all, also after a restart', async () => {
        await bus.publish([1, 2, 3].map((n) => messageOf(topic, 'key-1', n)));
        await bus.close();
        bus = await (opened.reopen as () => Promise<Bus>)();

        const received: number[] = [];
        await subscribe({ topics: [topic], group: `${group}-late`, handler: async (d) => void received.push(numberOf(d)) });

        await waitFor(() => received.length === 3, DELIVERY_TIMEOUT_MS);
        expect(received).toEqual([1, 2, 3]);
      });
    });
  });
}

import { sleep, waitFor } from '@vaultline/core';
import { busContract } from '@vaultline/bus/testing';
import { LogBus, MemoryLogStorage, openBus, partitionOf, type Delivery } from '../src';

busContract('memory', async () => {
  const bus = await openBus('memory://');
  return { bus, cleanup: async () => bus.close() };
});

describe('LogBus on memory', () => {
  it('when a publish wakes a consumer, then the publisher finishes its turn before the handler runs', async () => {
    const bus = new LogBus(new MemoryLogStorage(), { partitions: 1 });
    const order: string[] = [];
    const subscription = await bus.subscribe({ topics: ['t'], group: 'g', handler: async () => void order.push('handler') });
    await sleep(5);

    await bus.publish([{ topic: 't', key: 'k', value: '1', headers: {} }]);
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    order.push('publisher finished its turn');

    await waitFor(() => order.length === 2);
    expect(order).toEqual(['publisher finished its turn', 'handler']);
    await subscription.stop();
    await bus.close();
  });

  it('when a message of one key is being retried, then keys of other partitions keep flowing', async () => {
    const bus = new LogBus(new MemoryLogStorage(), { partitions: 8 });
    const stuckKey = 'stuck';
    const otherKeys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].filter((key) => partitionOf(key, 8) !== partitionOf(stuckKey, 8));
    const handled: string[] = [];
    const subscription = await bus.subscribe({
      topics: ['t'],
      group: 'g',
      retryDelayMs: () => 60_000,
      handler: async (delivery: Delivery) => {
        if (delivery.key === stuckKey) throw new Error('not yet');
        handled.push(delivery.key);
      },
    });

    await bus.publish([{ topic: 't', key: stuckKey, value: '1', headers: {} }, ...otherKeys.map((key) => ({ topic: 't', key, value: '2', headers: {} }))]);

    await waitFor(() => handled.length === otherKeys.length);
    expect(handled.sort()).toEqual([...otherKeys].sort());
    await subscription.stop();
    await bus.close();
  });

  it('when the same group subscribes again after stopping, then it resumes after the last handled message', async () => {
    const bus = await openBus('memory://');
    const first: string[] = [];
    const subscription = await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void first.push(d.value) });
    await bus.publish([{ topic: 't', key: 'k', value: '1', headers: {} }]);
    await waitFor(() => first.length === 1);
    await subscription.stop();

    await bus.publish([{ topic: 't', key: 'k', value: '2', headers: {} }]);
    const second: string[] = [];
    await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void second.push(d.value) });

    await waitFor(() => second.length === 1);
    await sleep(20);
    expect(second).toEqual(['2']);
    await bus.close();
  });

  it('when messages are older than the retention, then opening the bus prunes them', async () => {
    const storage = new MemoryLogStorage();
    storage.append([{ partition: 0, message: { topic: 't', key: 'k', value: 'old', headers: {} } }]);
    await sleep(5);
    const bus = new LogBus(storage, { partitions: 1, retentionMs: 1 });
    const received: string[] = [];
    await bus.publish([{ topic: 't', key: 'k', value: 'new', headers: {} }]);
    await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void received.push(d.value) });

    await waitFor(() => received.length === 1);
    expect(received).toEqual(['new']);
    await bus.close();
  });

  it('when a message has no string key, then publish refuses it', async () => {
    const bus = await openBus('memory://');
    await expect(bus.publish([{ topic: 't', key: undefined as unknown as string, value: 'v', headers: {} }])).rejects.toThrow('string key');
    await bus.close();
  });
});

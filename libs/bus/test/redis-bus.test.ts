import Redis from 'ioredis';
import { waitFor } from '@vaultline/core';
import { busContract } from '@vaultline/bus/testing';
import { startRedisServer, type RunningRedis } from '@vaultline/testing';
import { openBus, type Bus } from '../src';
import { RedisStreamsBus } from '../src/redis/redis-streams-bus';

let redis: RunningRedis;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.stop();
});

busContract(
  'redis streams',
  async () => {
    const opened: Bus[] = [];
    const bus = await openBus(redis.url);
    opened.push(bus);
    return {
      bus,
      reopen: async () => {
        const again = await openBus(redis.url);
        opened.push(again);
        return again;
      },
      cleanup: async () => {
        for (const each of opened) await each.close();
      },
    };
  },
  { durable: true },
);

describe('RedisStreamsBus', () => {
  it('when a consumer of the group crashed with an entry pending, then another consumer claims it once it is idle long enough', async () => {
    const crashed = await RedisStreamsBus.connect(redis.url, { consumerName: 'worker-a' });
    const attempts: number[] = [];
    await crashed.subscribe({
      topics: ['claims'],
      group: 'g',
      retryDelayMs: () => 60_000,
      handler: async (delivery) => {
        attempts.push(delivery.attempt);
        throw new Error('process dies here');
      },
    });
    await crashed.publish([{ topic: 'claims', key: 'k', value: 'orphan', headers: {} }]);
    await waitFor(() => attempts.length === 1);
    await crashed.close();

    const survivor = await RedisStreamsBus.connect(redis.url, { consumerName: 'worker-b', claimIdleMs: 100, blockMs: 50 });
    const received: string[] = [];
    await survivor.subscribe({ topics: ['claims'], group: 'g', handler: async (d) => void received.push(d.value) });

    await waitFor(() => received.length === 1);
    expect(received).toEqual(['orphan']);
    const client = new Redis(redis.url);
    await waitFor(async () => ((await client.call('XPENDING', 'claims', 'g')) as [number])[0] === 0);
    client.disconnect();
    await survivor.close();
  });

  it('when a subscription is stopped while blocked on a read, then stop returns promptly', async () => {
    const bus = await RedisStreamsBus.connect(redis.url, { blockMs: 10_000 });
    const subscription = await bus.subscribe({ topics: ['idle'], group: 'g', handler: async () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    await subscription.stop();

    expect(Date.now() - started).toBeLessThan(1_000);
    await bus.close();
  });

  it('when a group has entries not yet delivered and one pending, then consumerLag counts both (XINFO GROUPS lag + pending)', async () => {
    const bus = await RedisStreamsBus.connect(redis.url, { blockMs: 50 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let handled = 0;
    const subscription = await bus.subscribe({
      topics: ['lagging'],
      group: 'slow',
      handler: async () => {
        await gate;
        handled++;
      },
    });
    await bus.publish([1, 2, 3].map((n) => ({ topic: 'lagging', key: 'k', value: String(n), headers: {} })));
    await waitFor(async () => (await bus.consumerLag([{ group: 'slow', topics: ['lagging'] }]))[0]?.lag === 3);

    release();
    await waitFor(() => handled === 3);
    await waitFor(async () => (await bus.consumerLag([{ group: 'slow', topics: ['lagging'] }]))[0]?.lag === 0);
    await subscription.stop();
    await bus.close();
  });
});

import { createLogger } from '@vaultline/logger';
import { DEFAULT_HANDLER_RETRY, LogBus, MemoryLogStorage, handlerRetryPolicy, jitteredRetryDelay, withRetryDefaults, type Delivery } from '../src';

const schedule = (random: () => number) => Array.from({ length: 11 }, (_, at) => jitteredRetryDelay(DEFAULT_HANDLER_RETRY, random)(at + 1));

describe("a service's handler retries: minutes, jittered, before a dead letter", () => {
  it('when the draws are at their extremes, then each wait lies between half and all of 200 ms doubling, capped at 60 s', () => {
    expect(schedule(() => 0.999_999)).toEqual([200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 51_200, 60_000, 60_000]);
    expect(schedule(() => 0)).toEqual([100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000]);
  });

  it('when the defaults hold, then 12 attempts wait between about two and four minutes in all before the dead letter', () => {
    const total = (random: () => number) => schedule(random).reduce((sum, ms) => sum + ms, 0);
    expect(handlerRetryPolicy(DEFAULT_HANDLER_RETRY).maxAttempts).toBe(12);
    expect(total(() => 0)).toBeGreaterThanOrEqual(110_000);
    expect(total(() => 0.999_999)).toBeLessThanOrEqual(225_000);
  });

  it('when two replicas retry after the same failure, then their waits differ (the jitter spreads them)', () => {
    const waits = new Set(Array.from({ length: 20 }, () => jitteredRetryDelay(DEFAULT_HANDLER_RETRY)(6)));
    expect(waits.size).toBeGreaterThan(1);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(3_200);
      expect(wait).toBeLessThanOrEqual(6_400);
    }
  });

  it("when a subscription names no policy, then the service's is used; one it names is kept", async () => {
    const bus = withRetryDefaults(new LogBus(new MemoryLogStorage(), { logger: createLogger({ service: 'bus-test', level: 'silent' }) }), {
      maxAttempts: 3,
      retryDelayMs: () => 1,
    });
    const attempts = { defaulted: [] as number[], named: [] as number[] };
    const failing = (into: number[]) => async (delivery: Delivery) => {
      into.push(delivery.attempt);
      throw new Error('dependency down');
    };
    await bus.subscribe({ topics: ['retries'], group: 'defaulted', handler: failing(attempts.defaulted) });
    await bus.subscribe({ topics: ['retries'], group: 'named', handler: failing(attempts.named), maxAttempts: 2, retryDelayMs: () => 1 });
    await bus.publish([{ topic: 'retries', key: 'k', value: '{}', headers: {} }]);
    const deadline = Date.now() + 10_000;
    while ((attempts.defaulted.length < 3 || attempts.named.length < 2) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await bus.close();
    expect(attempts).toEqual({ defaulted: [1, 2, 3], named: [1, 2] });
  });
});

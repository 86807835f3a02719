import { AppError, UnavailableError } from '@vaultline/core';
import { createLogger } from '@vaultline/logger';
import { DEAD_LETTER_HEADERS, defaultRetryDelayMs, deliverWithRetry, describeError, retryPolicyOf, type BusMessage } from '../src';

const logger = createLogger({ service: 'bus-test', level: 'silent' });
const message: BusMessage = { topic: 'payments', key: 'pay_1', value: '{}', headers: { 'event-id': 'e1' } };

describe('the shared retry and dead-letter loop', () => {
  it('when no delay is configured, then the backoff starts at 50 ms, doubles and stops growing at 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 10].map(defaultRetryDelayMs)).toEqual([50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
    expect(retryPolicyOf({}).maxAttempts).toBe(5);
  });

  it('when a retryable AppError keeps failing, then it is retried up to maxAttempts before dead-lettering', async () => {
    const attempts: number[] = [];
    const dead: BusMessage[] = [];

    const outcome = await deliverWithRetry({
      message,
      group: 'g',
      handler: async (delivery) => {
        attempts.push(delivery.attempt);
        throw new UnavailableError('store down');
      },
      policy: { maxAttempts: 4, retryDelayMs: () => 1 },
      publishDeadLetter: async (letter) => void dead.push(letter),
      signal: new AbortController().signal,
      logger,
    });

    expect(outcome).toBe('dead-lettered');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(dead[0]).toMatchObject({
      topic: 'payments.dead-letter',
      key: 'pay_1',
      headers: { 'event-id': 'e1', [DEAD_LETTER_HEADERS.attempts]: '4', [DEAD_LETTER_HEADERS.group]: 'g' },
    });
  });

  it('when the subscription stops during a backoff, then the delivery ends at once without acknowledging', async () => {
    const abort = new AbortController();
    const started = Date.now();

    const outcome = await deliverWithRetry({
      message,
      group: 'g',
      handler: async () => {
        setTimeout(() => abort.abort(), 5);
        throw new Error('failing');
      },
      policy: { maxAttempts: 5, retryDelayMs: () => 60_000 },
      publishDeadLetter: async () => undefined,
      signal: abort.signal,
      logger,
    });

    expect(outcome).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('when the dead-letter publish fails at first, then it is retried until accepted before acknowledging, heartbeating in between', async () => {
    let publishCalls = 0;
    let beats = 0;
    const outcome = await deliverWithRetry({
      message,
      group: 'g',
      handler: async () => {
        throw new AppError('invalid_event', 422, 'bad');
      },
      policy: { maxAttempts: 5, retryDelayMs: () => 1 },
      publishDeadLetter: async () => {
        publishCalls++;
        if (publishCalls < 3) throw new Error('bus down');
      },
      signal: new AbortController().signal,
      logger,
      heartbeat: async () => void beats++,
    });

    expect(outcome).toBe('dead-lettered');
    expect(publishCalls).toBe(3);
    expect(beats).toBeGreaterThanOrEqual(2);
  });

  it('when a message is retried with a long backoff, then the transport heartbeat is called all through the backoff', async () => {
    const beats: number[] = [];
    const attempts: number[] = [];
    const started = Date.now();

    const outcome = await deliverWithRetry({
      message,
      group: 'g',
      handler: async (delivery) => {
        attempts.push(delivery.attempt);
        if (delivery.attempt < 3) throw new UnavailableError('store down');
      },
      policy: { maxAttempts: 5, retryDelayMs: () => 100 },
      publishDeadLetter: async () => undefined,
      signal: new AbortController().signal,
      logger,
      heartbeat: async () => void beats.push(Date.now() - started),
      heartbeatEveryMs: 20,
    });

    expect(outcome).toBe('handled');
    expect(attempts).toEqual([1, 2, 3]);
    // Two backoffs of 100 ms in slices of 20 ms: a heartbeat before each slice, so they span both backoffs
    // (counted, not timed: a loaded machine stretches the slices, never removes one).
    expect(beats.length).toBeGreaterThanOrEqual(10);
    expect((beats.at(-1) as number) - (beats[0] as number)).toBeGreaterThanOrEqual(150);
  });

  it('when the heartbeat fails (the group is rebalancing), then the delivery ends with that error and is not acknowledged', async () => {
    const rebalancing = Object.assign(new Error('The group is rebalancing, so a rejoin is needed'), { type: 'REBALANCE_IN_PROGRESS' });
    const attempts: number[] = [];

    const delivery = deliverWithRetry({
      message,
      group: 'g',
      handler: async (d) => {
        attempts.push(d.attempt);
        throw new UnavailableError('store down');
      },
      policy: { maxAttempts: 5, retryDelayMs: () => 10 },
      publishDeadLetter: async () => undefined,
      signal: new AbortController().signal,
      logger,
      heartbeat: async () => {
        throw rebalancing;
      },
    });

    await expect(delivery).rejects.toBe(rebalancing);
    expect(attempts).toEqual([1]);
  });

  it('when an error message carries a card number or is very long, then the text leaving the process is masked and truncated', () => {
    const text = describeError(new Error(`declined 4111-1111-1111-1111 ${'x'.repeat(1_000)}`));

    expect(text).not.toContain('4111-1111-1111-1111');
    expect(text).toContain('4111-11**-****-1111');
    expect(text.length).toBeLessThanOrEqual(500);
  });
});

import { DEFAULT_RETRY_SCHEDULE_MS, MAX_RETRY_AFTER_MS, nextAttemptDelay, parseRetryAfter } from './retry-policy';
import { classifyAttempt } from './delivery-outcome';

const now = new Date('2026-01-01T00:00:00.000Z');

describe('retry schedule and delivery outcomes', () => {
  it('when no schedule is configured, then it is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('when attempts fail, then each next delay is the scheduled one within the jitter, and none follows the last', () => {
    const policy = { scheduleMs: [0, 1_000, 10_000], jitter: 0.1 };
    for (let i = 0; i < 50; i++) {
      const second = nextAttemptDelay(policy, 1, null)!;
      expect(second).toBeGreaterThanOrEqual(900);
      expect(second).toBeLessThanOrEqual(1_100);
    }
    expect(nextAttemptDelay({ ...policy, random: () => 1 }, 2, null)).toBe(11_000);
    expect(nextAttemptDelay({ ...policy, random: () => 0 }, 2, null)).toBe(9_000);
    expect(nextAttemptDelay(policy, 3, null)).toBeNull();
  });

  it('when the receiver sent Retry-After, then the next attempt waits at least that long but no more than the cap', () => {
    const policy = { scheduleMs: [0, 10, 10], jitter: 0, random: () => 0.5 };
    expect(nextAttemptDelay(policy, 1, 2_000)).toBe(2_000);
    expect(nextAttemptDelay({ ...policy, scheduleMs: [0, 5_000] }, 1, 2_000)).toBe(5_000);
    expect(nextAttemptDelay(policy, 1, 10 * MAX_RETRY_AFTER_MS)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('when Retry-After is seconds or an HTTP date, then it is read as a delay; garbage is ignored', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it('when the receiver answers, then 2xx succeeds, 410 is gone, 3xx fails unfollowed, 429/503 carry Retry-After, others fail', () => {
    expect(classifyAttempt({ kind: 'response', status: 204, headers: {} }, now)).toEqual({ kind: 'succeeded', statusCode: 204 });
    expect(classifyAttempt({ kind: 'response', status: 410, headers: {} }, now).kind).toBe('gone');
    expect(classifyAttempt({ kind: 'response', status: 302, headers: { location: 'https://x' } }, now)).toEqual({
      kind: 'failed',
      statusCode: 302,
      error: 'http_302_redirect_not_followed',
      retryAfterMs: null,
    });
    expect(classifyAttempt({ kind: 'response', status: 429, headers: { 'retry-after': '7' } }, now)).toMatchObject({ retryAfterMs: 7_000 });
    expect(classifyAttempt({ kind: 'response', status: 503, headers: { 'retry-after': '1' } }, now)).toMatchObject({ retryAfterMs: 1_000 });
    expect(classifyAttempt({ kind: 'response', status: 500, headers: { 'retry-after': '9' } }, now)).toMatchObject({ error: 'http_500', retryAfterMs: null });
    expect(classifyAttempt({ kind: 'error', error: 'timeout', detail: 'x' }, now)).toMatchObject({ kind: 'failed', statusCode: null, error: 'timeout' });
  });
});

/** Svix's schedule, adopted by Standard Webhooks: delays before attempts 1…8. */
export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Retry-After beyond this is capped so a receiver cannot park a message for ever. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface RetryPolicy {
  /** Delay before attempt n (index n-1); the length is the number of attempts of a run. */
  scheduleMs: number[];
  /** ± fraction of each delay, so retries of many messages do not arrive in lockstep. */
  jitter: number;
  random?: () => number;
}

/**
 * When the attempt after `attemptsMade` failed ones is due, or null when the run is exhausted.
 * A Retry-After from the receiver (429/503) postpones it further, never brings it forward.
 */
export function nextAttemptDelay(policy: RetryPolicy, attemptsMade: number, retryAfterMs: number | null): number | null {
  const base = policy.scheduleMs[attemptsMade];
  if (base === undefined) return null;
  const random = policy.random ?? Math.random;
  const jittered = Math.max(0, Math.round(base * (1 + (random() * 2 - 1) * policy.jitter)));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

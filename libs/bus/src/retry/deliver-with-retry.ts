import { isAppError, maskPans, sleepEndingOnAbort } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import { DEAD_LETTER_HEADERS, deadLetterTopic, type BusMessage, type MessageHandler, type SubscribeOptions } from '../bus.port';

export const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_ERROR_HEADER_LENGTH = 500;

/** 50 ms before attempt 2, then doubling, never more than 5 s. */
export const defaultRetryDelayMs = (attempt: number): number => Math.min(50 * 2 ** (attempt - 1), 5_000);

export interface RetryPolicy {
  maxAttempts: number;
  retryDelayMs: (attempt: number) => number;
}

export function retryPolicyOf(options: Pick<SubscribeOptions, 'maxAttempts' | 'retryDelayMs'>): RetryPolicy {
  return {
    maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
  };
}

/**
 * How a service retries its handlers before a message becomes a dead letter (BUS_RETRY_MAX_ATTEMPTS,
 * BUS_RETRY_BASE_DELAY_MS, BUS_RETRY_MAX_DELAY_SECONDS): plain numbers, so a launcher can hand them to a thread.
 */
export interface HandlerRetrySettings {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * A service's default: 12 attempts, 200 ms doubling to at most 60 s, so a failing dependency (another service,
 * the store) gets about two to four minutes to come back before the message is set aside; the library's own
 * default (DEFAULT_MAX_ATTEMPTS, defaultRetryDelayMs) stays short for tools and tests that use a bus directly.
 */
export const DEFAULT_HANDLER_RETRY: HandlerRetrySettings = { maxAttempts: 12, baseDelayMs: 200, maxDelayMs: 60_000 };

/**
 * The wait before attempt `attempt + 1`: baseDelayMs doubling with each attempt, capped at maxDelayMs, then
 * "equal jitter" (a draw between half of it and all of it), so the replicas that failed on the same outage
 * do not all try again in the same instant, and no wait is shorter than half the schedule's.
 */
export function jitteredRetryDelay(settings: HandlerRetrySettings, random: () => number = Math.random): (attempt: number) => number {
  return (attempt) => {
    const capped = Math.min(settings.baseDelayMs * 2 ** Math.max(0, attempt - 1), settings.maxDelayMs);
    return Math.round(capped / 2 + random() * (capped / 2));
  };
}

export function handlerRetryPolicy(settings: HandlerRetrySettings, random?: () => number): RetryPolicy {
  return { maxAttempts: Math.max(1, settings.maxAttempts), retryDelayMs: jitteredRetryDelay(settings, random) };
}

/**
 * handled: the handler resolved; dead-lettered: published to `<topic>.dead-letter`;
 * both mean "acknowledge". aborted: the subscription is stopping; do NOT acknowledge, so the
 * message is delivered again later (after a restart, or to another member).
 */
export type DeliveryOutcome = 'handled' | 'dead-lettered' | 'aborted';

export interface DeliverWithRetryInput {
  message: BusMessage;
  group: string;
  handler: MessageHandler;
  policy: RetryPolicy;
  /** Publishes the dead-letter message (the adapter's own publish). */
  publishDeadLetter: (message: BusMessage) => Promise<void>;
  /** Aborts a pending backoff when the subscription stops. */
  signal: AbortSignal;
  logger: Logger;
  /**
   * Tells the transport this consumer is alive while a message is retried (Kafka: the eachMessage
   * payload's heartbeat; kafkajs heartbeats by itself only after eachMessage returns, and a member
   * silent for the session timeout is evicted and its partition handed to another member). Called
   * at least every `heartbeatEveryMs` of backoff. When it throws (the group is rebalancing), the
   * error ends the delivery unacknowledged, so the partition's next owner gets the message.
   */
  heartbeat?: () => Promise<void>;
  /** Default 1 s; kafkajs sends a heartbeat only once its own interval (3 s) has passed, so calling more often is free. */
  heartbeatEveryMs?: number;
}

const DEFAULT_HEARTBEAT_EVERY_MS = 1_000;

/**
 * The one retry/dead-letter loop every adapter runs around a handler: attempts counted from 1,
 * a non-retryable AppError goes to the dead-letter topic at once, anything else is retried with
 * backoff until maxAttempts. Error text is masked (maskPans) and truncated before it leaves
 * the process, in headers and in logs.
 */
export async function deliverWithRetry(input: DeliverWithRetryInput): Promise<DeliveryOutcome> {
  const { message, group, handler, policy, signal, logger } = input;
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) return 'aborted';
    try {
      await handler({ ...message, headers: { ...message.headers }, attempt, lastAttempt: attempt >= policy.maxAttempts });
      return 'handled';
    } catch (error) {
      const description = describeError(error);
      const retryable = isRetryable(error);
      const context = { topic: message.topic, key: message.key, group, attempt, error: description };
      if (goesToDeadLetter(error, attempt, policy)) {
        const deadLetter = deadLetterOf(message, { error: description, attempts: attempt, group });
        if (!(await publishUntilAccepted(input, deadLetter))) return 'aborted';
        logger.error(context, retryable ? 'bus handler kept failing; message dead-lettered' : 'bus handler rejected message; dead-lettered');
        return 'dead-lettered';
      }
      logger.warn(context, 'bus handler failed; retrying');
      await backOff(policy.retryDelayMs(attempt), input);
    }
  }
}

/** Whether a handler's failure may be retried (anything but an AppError that says it may not). */
export const isRetryable = (error: unknown): boolean => !(isAppError(error) && !error.retryable);

/** Whether a handler's failure on this attempt sends the message to the dead-letter topic (else it is retried). */
export function goesToDeadLetter(error: unknown, attempt: number, policy: RetryPolicy): boolean {
  return !isRetryable(error) || attempt >= policy.maxAttempts;
}

/** The message is acknowledged only once its dead letter is stored, so keep trying until then. */
async function publishUntilAccepted(input: DeliverWithRetryInput, deadLetter: BusMessage): Promise<boolean> {
  for (let failures = 1; !input.signal.aborted; failures++) {
    try {
      await input.publishDeadLetter(deadLetter);
      return true;
    } catch (error) {
      input.logger.warn({ topic: deadLetter.topic, error: describeError(error) }, 'dead-letter publish failed; retrying');
      await backOff(defaultRetryDelayMs(failures), input);
    }
  }
  return false;
}

/** Sleeps `ms` (ended early by the signal), heartbeating before each slice when the transport asks for it. */
async function backOff(ms: number, input: DeliverWithRetryInput): Promise<void> {
  const { heartbeat, signal } = input;
  if (!heartbeat) return sleepEndingOnAbort(ms, signal);
  const every = Math.max(1, input.heartbeatEveryMs ?? DEFAULT_HEARTBEAT_EVERY_MS);
  for (let left = ms; left > 0 && !signal.aborted; left -= every) {
    await heartbeat();
    await sleepEndingOnAbort(Math.min(every, left), signal);
  }
}

export function describeError(error: unknown): string {
  const text = isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const masked = maskPans(text);
  return masked.length > MAX_ERROR_HEADER_LENGTH ? `${masked.slice(0, MAX_ERROR_HEADER_LENGTH - 1)}…` : masked;
}

export function deadLetterOf(message: BusMessage, failure: { error: string; attempts: number; group: string; failedAt?: Date }): BusMessage {
  return {
    topic: deadLetterTopic(message.topic),
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DEAD_LETTER_HEADERS.error]: failure.error,
      [DEAD_LETTER_HEADERS.attempts]: String(failure.attempts),
      [DEAD_LETTER_HEADERS.group]: failure.group,
      [DEAD_LETTER_HEADERS.failedAt]: (failure.failedAt ?? new Date()).toISOString(),
    },
  };
}

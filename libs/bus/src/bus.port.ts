/**
 * The message-bus port. Adapters: memory (embedded), Redis Streams (local), Kafka (production).
 *
 * Semantics every adapter keeps (the contract suite in libs/testing checks them):
 * - Topics; consumer groups: each group gets every message once, members of a group share it.
 * - At-least-once: a message is acknowledged only after its handler resolved.
 * - A handler that throws gets the message again (in-process retry with backoff, and again after
 *   a restart when the process died before acknowledging); after maxAttempts it is published to
 *   `<topic>.dead-letter` with the error and attempt count in headers, then acknowledged.
 * - Ordered per key: messages with the same key reach a group's handler in publish order, and
 *   the next one waits while an earlier one is being retried.
 */
export interface BusMessage {
  topic: string;
  /** The aggregate id; decides partition and ordering. */
  key: string;
  /** The JSON event envelope. */
  value: string;
  headers: Record<string, string>;
}

export interface Delivery extends BusMessage {
  /** 1 on first delivery. */
  attempt: number;
}

export type MessageHandler = (delivery: Delivery) => Promise<void>;

export interface SubscribeOptions {
  topic: string;
  group: string;
  handler: MessageHandler;
  /** Attempts before dead-lettering (default 5). */
  maxAttempts?: number;
  /** Delay before attempt n+1 (default: 50 ms doubling, capped at 5 s). */
  retryDelayMs?: (attempt: number) => number;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface Bus {
  /** Creates topics where the transport needs it (Kafka, Redis groups); idempotent. */
  ensureTopics(topics: string[]): Promise<void>;
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dead-letter`;

export const DEAD_LETTER_HEADERS = {
  error: 'x-dead-letter-error',
  attempts: 'x-dead-letter-attempts',
  group: 'x-dead-letter-group',
  failedAt: 'x-dead-letter-failed-at',
} as const;

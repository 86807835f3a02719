/**
 * The message-bus port. Adapters: memory (embedded), Redis Streams (local), Kafka (production).
 *
 * Semantics every adapter keeps (the contract suite in libs/testing checks them):
 * - Topics; consumer groups: each group gets every message once, members of a group share it.
 * - A group is one subscription over a list of topics: every member of a group subscribes to the
 *   same topics in one call (Kafka's group leader assigns only the topics it subscribed itself, so
 *   members of one group with different topics would leave partitions unconsumed). A second
 *   subscription of a group in the same bus with other topics is refused.
 * - publish creates a topic that does not exist yet (with its dead-letter topic).
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
  /** This attempt is the last the retry policy allows: if the handler fails now, the message becomes a dead letter. */
  lastAttempt?: boolean;
}

export type MessageHandler = (delivery: Delivery) => Promise<void>;

export interface SubscribeOptions {
  /** Every topic this group consumes (at least one); deliveries say which one they came from. */
  topics: string[];
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

/** A subscription that stopped consuming and has not (yet) come back, with the last error. */
export interface FailingSubscription {
  group: string;
  topics: string[];
  error: string;
  /** ISO time of the failure. */
  since: string;
}

export interface BusHealth {
  /** Empty while every subscription of this bus consumes (or is starting). */
  failing: FailingSubscription[];
  /**
   * The transport does not answer (Kafka: no broker took a request) since `since`, with the last error;
   * `starting`: it has not answered once since the bus was opened. Absent while it answers (and for
   * adapters in the process, which have nothing to reach).
   */
  unreachable?: { since: string; error: string; starting: boolean };
}

/** Messages of a topic appended and not yet committed (acknowledged) by a group. */
export interface ConsumerLag {
  group: string;
  topic: string;
  lag: number;
}

export interface Bus {
  /** Creates topics where the transport needs it (Kafka, Redis groups); idempotent. */
  ensureTopics(topics: string[]): Promise<void>;
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  ping(): Promise<void>;
  /**
   * Whether this bus's subscriptions are consuming: a subscription whose consuming loop is in an
   * error state (a Kafka consumer kafkajs gave up on, a Redis or log read that keeps failing) is listed
   * until it consumes again; and whether its transport answers. For /ready: a service whose consumers
   * died, or whose events cannot leave its outbox, is not ready.
   */
  health(): BusHealth;
  /**
   * The lag of these groups on their topics: the log bus (end offset minus committed offset per
   * partition), Redis Streams (XINFO GROUPS: lag + pending), Kafka (the admin API's group offsets
   * against the topics' end offsets, measured at most once per interval in the background: the
   * answer is the last measurement, never a wait on the brokers).
   */
  consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]>;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dead-letter`;

export const DEAD_LETTER_HEADERS = {
  error: 'x-dead-letter-error',
  attempts: 'x-dead-letter-attempts',
  group: 'x-dead-letter-group',
  failedAt: 'x-dead-letter-failed-at',
} as const;

import { waitFor } from '@vaultline/core';
import type { Bus, BusHealth, BusMessage, ConsumerLag, Delivery, MessageHandler, SubscribeOptions, Subscription } from '../bus.port';

export interface RedeliveryOptions {
  /** Seeds the choices (copies, when a copy arrives): a failing run is replayed with its seed. */
  seed: number;
  /** Extra copies per message: each message reaches each handler 1 + (1..maxExtraCopies) times; 0 turns redelivery off. */
  maxExtraCopies?: number;
}

/** What a run did, for the test's output. */
export interface RedeliveryStats {
  /** Deliveries the inner bus made (first attempts and its own retries). */
  delivered: number;
  /** Extra copies handed to handlers by this decorator. */
  redelivered: number;
  /** Copies that reached a handler after a later message of the same key: out of order. */
  outOfOrder: number;
  /** Copies that reached a handler while the same message was being handled (two group members at once). */
  concurrent: number;
}

interface Held {
  delivery: Delivery;
  /** Position of the message in its subscription's stream when it was first delivered. */
  position: number;
}

/**
 * A Bus decorator for tests: what an at-least-once bus may do after a rebalance, a crash before the
 * acknowledgement or a retry racing a slow handler. Every message a subscription gets from the inner bus
 * is handed to the handler again one or more times (seeded): sometimes at once, sometimes at the same
 * time as the first, mostly later, after messages published after it — also of the same key, so a
 * consumer sees an earlier event of an aggregate after a later one. Publishing goes to the inner bus and
 * is recorded (`published`: what the relays sent, for comparing end states).
 *
 * `settle()` waits until every message published through this bus reached every subscription on its
 * topic, then hands over the copies still held, until nothing moves.
 */
export class RedeliveringBus implements Bus {
  readonly published: BusMessage[] = [];
  readonly stats: RedeliveryStats = { delivered: 0, redelivered: 0, outOfOrder: 0, concurrent: 0 };
  /** Copies whose handler threw a non-retryable error: a consumer that cannot take a duplicate. */
  readonly failures: Array<{ topic: string; key: string; error: string }> = [];
  private readonly random: () => number;
  private readonly maxExtraCopies: number;
  private readonly subscriptions: RedeliveringSubscription[] = [];

  constructor(
    private readonly inner: Bus,
    options: RedeliveryOptions,
  ) {
    this.random = mulberry32(options.seed);
    this.maxExtraCopies = options.maxExtraCopies ?? 2;
  }

  ensureTopics(topics: string[]): Promise<void> {
    return this.inner.ensureTopics(topics);
  }

  async publish(messages: BusMessage[]): Promise<void> {
    await this.inner.publish(messages);
    this.published.push(...messages.map((m) => ({ ...m, headers: { ...m.headers } })));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const subscription = new RedeliveringSubscription(options, this.random, this.maxExtraCopies, this.stats, this.failures);
    this.subscriptions.push(subscription);
    const inner = await this.inner.subscribe({ ...options, handler: (delivery) => subscription.deliver(delivery) });
    return {
      stop: async () => {
        await inner.stop();
        subscription.stopped = true;
      },
    };
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    return this.inner.consumerLag(groups);
  }

  health(): BusHealth {
    return this.inner.health();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Waits for the inner bus to deliver everything published here, hands over every held copy, and
   * repeats while handlers publish more (through an outbox relay on this bus). `quiet` is what else must
   * hold before the run counts as settled (an outbox drained, a job finished).
   */
  async settle(options: { timeoutMs?: number; quiet?: () => Promise<boolean> } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const publishedBefore = this.published.length;
      await waitFor(async () => this.subscriptions.every((s) => s.stopped || s.hasSeen(this.published)), Math.max(1, deadline - Date.now()));
      for (const subscription of this.subscriptions) await subscription.flush();
      await waitFor(async () => this.subscriptions.every((s) => s.idle()), Math.max(1, deadline - Date.now()));
      if (options.quiet) await waitFor(options.quiet, Math.max(1, deadline - Date.now()));
      // Give relays a moment to publish what the last handlers committed.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const moved = this.published.length !== publishedBefore || this.subscriptions.some((s) => s.holding());
      if (!moved) return;
      if (Date.now() > deadline) throw new Error('RedeliveringBus.settle: still moving at the deadline');
    }
  }
}

class RedeliveringSubscription {
  stopped = false;
  private readonly held: Held[] = [];
  private readonly seen = new Set<string>();
  private readonly lastPositionOfKey = new Map<string, number>();
  private position = 0;
  private running = 0;

  constructor(
    private readonly options: SubscribeOptions,
    private readonly random: () => number,
    private readonly maxExtraCopies: number,
    private readonly stats: RedeliveryStats,
    private readonly failures: RedeliveringBus['failures'],
  ) {}

  async deliver(delivery: Delivery): Promise<void> {
    this.stats.delivered++;
    // Before this message, some held copies of earlier ones arrive: after later messages, out of order.
    const due = this.held.filter(() => this.random() < 0.4);
    for (const copy of due) this.held.splice(this.held.indexOf(copy), 1);
    await Promise.all(due.map((copy) => this.handOver(copy)));

    const position = ++this.position;
    const extra = delivery.attempt === 1 && this.maxExtraCopies > 0 ? 1 + Math.floor(this.random() * this.maxExtraCopies) : 0;
    const copies: Held[] = Array.from({ length: extra }, () => ({ delivery: { ...delivery, attempt: delivery.attempt + 1 }, position }));
    const concurrent = copies.length > 0 && this.random() < 0.25 ? copies.shift() : undefined;

    this.running++;
    try {
      if (concurrent) {
        this.stats.concurrent++;
        await Promise.all([this.options.handler(delivery), this.handOver(concurrent)]);
      } else await this.options.handler(delivery);
    } finally {
      this.running--;
    }
    this.lastPositionOfKey.set(`${delivery.topic}\u0000${delivery.key}`, position);
    this.seen.add(identity(delivery));
    const immediate = copies.length > 0 && this.random() < 0.3 ? copies.shift() : undefined;
    if (immediate) await this.handOver(immediate);
    this.held.push(...copies);
  }

  hasSeen(published: BusMessage[]): boolean {
    return published.every((m) => !this.options.topics.includes(m.topic) || this.seen.has(identity(m)));
  }

  holding(): boolean {
    return this.held.length > 0;
  }

  idle(): boolean {
    return this.running === 0;
  }

  /** Hands over every held copy, in a shuffled order. */
  async flush(): Promise<void> {
    while (this.held.length > 0) {
      const index = Math.floor(this.random() * this.held.length);
      const [copy] = this.held.splice(index, 1);
      if (copy) await this.handOver(copy);
    }
  }

  private async handOver(copy: Held): Promise<void> {
    if (this.stopped) return;
    this.stats.redelivered++;
    if ((this.lastPositionOfKey.get(`${copy.delivery.topic}\u0000${copy.delivery.key}`) ?? 0) > copy.position) this.stats.outOfOrder++;
    this.running++;
    try {
      await (this.options.handler as MessageHandler)(copy.delivery);
    } catch (error) {
      const retryable = typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
      // A retryable refusal would be retried by the bus: the copy comes back later.
      if (retryable && copy.delivery.attempt < 10) this.held.push({ ...copy, delivery: { ...copy.delivery, attempt: copy.delivery.attempt + 1 } });
      else this.failures.push({ topic: copy.delivery.topic, key: copy.delivery.key, error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.running--;
    }
  }
}

const identity = (m: BusMessage): string => `${m.topic}\u0000${m.key}\u0000${m.value}`;

/** A small seeded generator (mulberry32): the same seed gives the same choices. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

import type Redis from 'ioredis';
import type { Logger } from '@vaultline/logger';
import type { BusMessage, MessageHandler } from '../bus.port';
import { sleepEndingOnAbort } from '@vaultline/core';
import { defaultRetryDelayMs, deliverWithRetry, describeError, type RetryPolicy } from '../retry/deliver-with-retry';
import { parseAutoClaimReply, parseReadReply, type StreamEntry } from './stream-entries';
import type { SubscriptionHealth } from '../subscriptions';

export interface RedisStreamConsumerDeps {
  /** A connection of its own: XREADGROUP BLOCK holds it. */
  connection: Redis;
  topic: string;
  group: string;
  consumer: string;
  handler: MessageHandler;
  policy: RetryPolicy;
  publishDeadLetter: (message: BusMessage) => Promise<void>;
  logger: Logger;
  blockMs: number;
  readCount: number;
  /** Entries pending this long at another consumer are taken over (XAUTOCLAIM). */
  claimIdleMs: number;
  /** Where a read loop that keeps failing is reported (Bus.health). */
  health: SubscriptionHealth;
}

/**
 * One member of a consumer group on one stream. It handles its entries one at a time, in stream
 * order, and acknowledges each only after the handler resolved or the entry was dead-lettered.
 * On start it first re-reads its own pending entries (a crashed predecessor with the same stable
 * consumer name left them unacknowledged), then periodically claims entries idle too long at
 * other consumers, then blocks for new ones.
 */
export class RedisStreamConsumer {
  private readonly abort = new AbortController();
  private stopping = false;
  private blockedInRead = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RedisStreamConsumerDeps) {}

  async start(): Promise<void> {
    const { connection, topic, group } = this.deps;
    try {
      // From the beginning ('0'), like the log bus and Kafka's fromBeginning.
      await connection.call('XGROUP', 'CREATE', topic, group, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    // Interrupts a blocking read; a running handler is waited for (its ack still goes out).
    const interrupted = this.blockedInRead;
    if (interrupted) this.deps.connection.disconnect();
    await this.loop;
    this.deps.health.recover(this);
    // Disconnecting twice would leave ioredis' 2 s socket-destroy timer running.
    if (!interrupted) await this.deps.connection.quit().catch(() => this.deps.connection.disconnect());
  }

  private async run(): Promise<void> {
    let lastClaimAt = 0;
    let failures = 0;
    let pendingDone = false;
    while (!this.stopping) {
      try {
        if (!pendingDone) {
          await this.handlePending();
          pendingDone = true;
        }
        if (Date.now() - lastClaimAt >= this.deps.claimIdleMs) {
          lastClaimAt = Date.now();
          await this.claimIdle();
        }
        const entries = await this.read('>', true);
        this.deps.health.recover(this);
        if (!(await this.handleAll(entries))) return;
        failures = 0;
      } catch (error) {
        if (this.stopping) return;
        failures++;
        this.deps.health.fail(this, { group: this.deps.group, topics: [this.deps.topic] }, describeError(error));
        this.deps.logger.warn({ topic: this.deps.topic, group: this.deps.group, error: describeError(error) }, 'redis bus read failed; retrying');
        await sleepEndingOnAbort(defaultRetryDelayMs(failures), this.abort.signal);
      }
    }
  }

  /** Own pending entries, oldest first (id 0 = "my PEL" rather than new entries). */
  private async handlePending(): Promise<void> {
    let cursor = '0';
    while (!this.stopping) {
      const entries = await this.read(cursor, false);
      if (entries.length === 0) return;
      if (!(await this.handleAll(entries))) return;
      cursor = (entries[entries.length - 1] as StreamEntry).id;
    }
  }

  private async claimIdle(): Promise<void> {
    const { connection, topic, group, consumer, claimIdleMs, readCount } = this.deps;
    let start = '0-0';
    do {
      const reply = await connection.call('XAUTOCLAIM', topic, group, consumer, String(claimIdleMs), start, 'COUNT', String(readCount));
      const claimed = parseAutoClaimReply(topic, reply);
      if (claimed.entries.length > 0) {
        this.deps.logger.info({ topic, group, consumer, claimed: claimed.entries.length }, 'redis bus claimed idle entries');
      }
      if (!(await this.handleAll(claimed.entries))) return;
      start = claimed.next;
    } while (start !== '0-0' && !this.stopping);
  }

  private async read(cursor: string, block: boolean): Promise<StreamEntry[]> {
    const { connection, topic, group, consumer, readCount, blockMs } = this.deps;
    const args = ['GROUP', group, consumer, 'COUNT', String(readCount), ...(block ? ['BLOCK', String(blockMs)] : []), 'STREAMS', topic, cursor];
    this.blockedInRead = block;
    try {
      return parseReadReply(topic, await connection.call('XREADGROUP', ...args));
    } finally {
      this.blockedInRead = false;
    }
  }

  /** False when stopping interrupted a delivery (left unacknowledged for redelivery). */
  private async handleAll(entries: StreamEntry[]): Promise<boolean> {
    for (const entry of entries) {
      if (this.stopping) return false;
      if (entry.message) {
        const outcome = await deliverWithRetry({
          message: entry.message,
          group: this.deps.group,
          handler: this.deps.handler,
          policy: this.deps.policy,
          publishDeadLetter: this.deps.publishDeadLetter,
          signal: this.abort.signal,
          logger: this.deps.logger,
        });
        if (outcome === 'aborted') return false;
      } else {
        this.deps.logger.warn({ topic: this.deps.topic, id: entry.id }, 'redis bus entry deleted or malformed; acknowledged without handling');
      }
      await this.deps.connection.call('XACK', this.deps.topic, this.deps.group, entry.id);
    }
    return true;
  }
}

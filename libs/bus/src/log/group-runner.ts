import type { Logger } from '@vaultline/logger';
import type { BusMessage, MessageHandler } from '../bus.port';
import { deliverWithRetry, type DeliveryOutcome, type RetryPolicy } from '../retry/deliver-with-retry';
import type { LogStorage } from './log-storage.port';
import { WakeSignal, afterPendingIo } from '../wake-signal';
import type { SubscriptionHealth } from '../subscriptions';

export interface GroupMember {
  handler: MessageHandler;
  policy: RetryPolicy;
  abort: AbortController;
  inFlight: Set<Promise<DeliveryOutcome>>;
}

export interface GroupRunnerDeps {
  storage: LogStorage;
  topic: string;
  group: string;
  partitions: number;
  batchSize: number;
  pollIntervalMs: number;
  publishDeadLetter: (message: BusMessage) => Promise<void>;
  logger: Logger;
  /** Where a partition loop that keeps failing is reported (Bus.health). */
  health: SubscriptionHealth;
}

/**
 * Delivers one topic to one consumer group: a loop per partition, each strictly sequential
 * (per-key order, and a message being retried holds back only its own partition). Members of
 * the group share the partitions (partition p goes to member p mod n); a partition's offset is
 * committed only after its message was handled or dead-lettered.
 */
export class GroupRunner {
  private readonly members: GroupMember[] = [];
  private readonly signals: WakeSignal[];
  private loops: Promise<void>[] = [];
  private stopped = false;

  constructor(private readonly deps: GroupRunnerDeps) {
    this.signals = Array.from({ length: deps.partitions }, () => new WakeSignal());
  }

  get memberCount(): number {
    return this.members.length;
  }

  addMember(member: GroupMember): void {
    this.members.push(member);
    if (this.loops.length === 0) {
      this.loops = this.signals.map((_, partition) => this.runPartition(partition));
    }
    this.notifyAll();
  }

  /** Stops one member: its pending backoffs end, its running handlers finish, its partitions move on. */
  async removeMember(member: GroupMember): Promise<void> {
    const index = this.members.indexOf(member);
    if (index === -1) return;
    this.members.splice(index, 1);
    member.abort.abort();
    if (this.members.length === 0) await this.stop();
    await Promise.allSettled([...member.inFlight]);
    this.notifyAll();
  }

  notify(partition: number): void {
    this.signals[partition]?.notify();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const signal of this.signals) this.deps.health.recover(signal);
    for (const member of this.members.splice(0)) member.abort.abort();
    this.notifyAll();
    await Promise.allSettled(this.loops);
  }

  private notifyAll(): void {
    for (const signal of this.signals) signal.notify();
  }

  private async runPartition(partition: number): Promise<void> {
    const { storage, topic, group, batchSize, pollIntervalMs, logger } = this.deps;
    const signal = this.signals[partition] as WakeSignal;
    // This loop is the only writer of the partition's offset (members of a group live in one
    // process), so it is read from storage once and then tracked here; re-read after a failure.
    let next: number | undefined;
    while (!this.stopped) {
      try {
        next ??= storage.committedOffset(group, topic, partition);
        const batch = storage.read(topic, partition, next, batchSize);
        this.deps.health.recover(signal);
        if (batch.length === 0) {
          await signal.wait(pollIntervalMs);
          await afterPendingIo();
          continue;
        }
        let handled = next;
        try {
          for (const record of batch) {
            const member = this.members[partition % Math.max(1, this.members.length)];
            if (!member || this.stopped) break;
            const outcome = await this.deliver(member, record.message);
            // Aborted: the member is stopping; leave the offset so the message is delivered again.
            if (outcome === 'aborted') break;
            handled = record.offset + 1;
          }
        } finally {
          // One offset commit for everything handled from this batch (a group commit): after a
          // crash the uncommitted rest is delivered again, which consumers dedupe (at-least-once).
          if (handled !== next) {
            storage.commit([{ group, topic, partition, nextOffset: handled }]);
            next = handled;
          }
        }
        // A short batch was the end of the partition when it was read: anything appended since
        // notified the signal, so wait for it instead of reading once more only to find nothing.
        if (batch.length < batchSize) {
          await signal.wait(pollIntervalMs);
          await afterPendingIo();
        }
      } catch (error) {
        next = undefined;
        if (this.stopped) return;
        this.deps.health.fail(signal, { group, topics: [topic] }, error instanceof Error ? error.message : String(error));
        logger.error({ topic, group, partition, error: error instanceof Error ? error.message : String(error) }, 'bus partition loop failed; retrying');
        await signal.wait(pollIntervalMs);
      }
    }
  }

  private async deliver(member: GroupMember, message: BusMessage): Promise<DeliveryOutcome> {
    const delivery = deliverWithRetry({
      message,
      group: this.deps.group,
      handler: member.handler,
      policy: member.policy,
      publishDeadLetter: this.deps.publishDeadLetter,
      signal: member.abort.signal,
      logger: this.deps.logger,
    });
    member.inFlight.add(delivery);
    try {
      return await delivery;
    } finally {
      member.inFlight.delete(delivery);
    }
  }
}

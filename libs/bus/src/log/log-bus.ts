import type { Logger } from '@vaultline/logger';
import type { Bus, BusHealth, BusMessage, ConsumerLag, SubscribeOptions, Subscription } from '../bus.port';
import { retryPolicyOf } from '../retry/deliver-with-retry';
import { silentLogger } from '../silent-logger';
import { validateMessages } from '../validate-messages';
import { GroupTopics, SubscriptionHealth, topicsOf } from '../subscriptions';
import { GroupRunner, type GroupMember } from './group-runner';
import type { LogStorage } from './log-storage.port';
import { partitionOf } from './partition-of';
import type { WakeSource } from './wake-source';

export interface LogBusOptions {
  /** Partitions per topic (default 8); the key's hash picks one. Keep it stable for a given storage. */
  partitions?: number;
  /** Messages read per partition at a time (default 100). */
  batchSize?: number;
  /** Fallback poll when no publish woke a partition (default 1 s): catches other processes' writes. */
  pollIntervalMs?: number;
  /** Messages older than this are pruned, handled or not (default 7 days, like Kafka's retention). */
  retentionMs?: number;
  logger?: Logger;
  /**
   * Other buses appending to the same storage (a service on a thread of its own, embedded profile):
   * this bus announces its appends there and wakes its consumers on theirs. The bus closes it.
   */
  wakeSource?: WakeSource;
  /** How long wake-ups for the other buses' appends are gathered (default 5 ms). */
  crossThreadWakeDelayMs?: number;
}

const HOUR_MS = 3_600_000;
const CROSS_THREAD_WAKE_DELAY_MS = 5;

/**
 * The in-process bus of the memory:// and sqlite: profiles, on a partitioned log.
 *
 * - A group that subscribes for the first time starts from the beginning of the topic (what is
 *   still retained), like Kafka's fromBeginning; later it resumes from its committed offsets.
 * - Per-key order: a key always maps to the same partition, and a group handles a partition
 *   strictly sequentially; partitions progress independently.
 * - Consumers are woken by publish on this bus and by the appends a wake source announces; other
 *   processes' writes to the same SQLite file are seen by the fallback poll. Members of a group must
 *   live in one process (offsets are not leased), so run one consuming process per SQLite file.
 */
export class LogBus implements Bus {
  private readonly partitions: number;
  private readonly logger: Logger;
  private readonly runners = new Map<string, GroupRunner>();
  private readonly groupTopics = new GroupTopics();
  private readonly subscriptionHealth = new SubscriptionHealth();
  private readonly stopping = new Map<string, Promise<void>>();
  private readonly pruneTimer: NodeJS.Timeout;
  private readonly stopHearingAppends: (() => void) | undefined;
  private closed = false;
  private readonly appendedElsewhere = new Map<string, { topic: string; partition: number }>();
  private elsewhereWake: NodeJS.Timeout | undefined;

  constructor(
    private readonly storage: LogStorage,
    private readonly options: LogBusOptions = {},
  ) {
    this.partitions = options.partitions ?? 8;
    this.logger = options.logger ?? silentLogger();
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), HOUR_MS);
    this.pruneTimer.unref();
    // Other buses' appends wake the consumers of their topics, gathered for a few milliseconds: a consumer
    // then reads the appends of several of the other bus's commits at once, not one task and read per commit.
    this.stopHearingAppends = options.wakeSource?.onAppend((appended) => {
      const consumed = appended.filter(({ record }) => this.hasRunnersOf(record.message.topic));
      if (consumed.length === 0) return;
      for (const { partition, record } of consumed)
        this.appendedElsewhere.set(`${record.message.topic}\u0000${partition}`, { topic: record.message.topic, partition });
      if (!this.elsewhereWake) {
        this.elsewhereWake = setTimeout(() => this.wakeForElsewhere(), options.crossThreadWakeDelayMs ?? CROSS_THREAD_WAKE_DELAY_MS);
        this.elsewhereWake.unref();
      }
    });
  }

  async ensureTopics(_topics: string[]): Promise<void> {
    // A log topic exists as soon as something is appended to it.
    this.assertOpen();
  }

  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    validateMessages(messages);
    if (messages.length === 0) return;
    const entries = messages.map((message) => ({ partition: partitionOf(message.key, this.partitions), message }));
    const appended = this.storage.append(entries);
    for (const { partition, message } of entries) this.wake(message.topic, partition);
    this.options.wakeSource?.announce(appended.map((record, index) => ({ partition: entries[index]!.partition, record })));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const topics = topicsOf(options);
    const release = this.groupTopics.claim(options.group, topics);
    // One member per topic's runner, sharing the handler and the abort: the group's topics are
    // separate logs, each with its own partition loops and offsets.
    const abort = new AbortController();
    const policy = retryPolicyOf(options);
    const joined: Array<{ slot: string; runner: GroupRunner; member: GroupMember }> = [];
    for (const topic of topics) {
      const slot = `${topic}\u0000${options.group}`;
      await this.stopping.get(slot);
      let runner = this.runners.get(slot);
      if (!runner) {
        runner = new GroupRunner({
          storage: this.storage,
          topic,
          group: options.group,
          partitions: this.partitions,
          batchSize: this.options.batchSize ?? 100,
          pollIntervalMs: this.options.pollIntervalMs ?? 1_000,
          publishDeadLetter: (message) => this.publish([message]),
          logger: this.logger,
          health: this.subscriptionHealth,
        });
        this.runners.set(slot, runner);
      }
      const member: GroupMember = { handler: options.handler, policy, abort, inFlight: new Set() };
      runner.addMember(member);
      joined.push({ slot, runner, member });
    }
    let stopped: Promise<void> | undefined;
    return {
      stop: () =>
        (stopped ??= (async () => {
          release();
          await Promise.all(joined.map(({ slot, runner, member }) => this.leave(slot, runner, member)));
        })()),
    };
  }

  async consumerLag(groups: Array<{ group: string; topics: string[] }>): Promise<ConsumerLag[]> {
    this.assertOpen();
    return groups.flatMap(({ group, topics }) =>
      topics.map((topic) => {
        let lag = 0;
        for (let partition = 0; partition < this.partitions; partition++) {
          lag += Math.max(0, this.storage.endOffset(topic, partition) - this.storage.committedOffset(group, topic, partition));
        }
        return { group, topic, lag };
      }),
    );
  }

  health(): BusHealth {
    return this.subscriptionHealth.report();
  }

  private async leave(slot: string, owner: GroupRunner, member: GroupMember): Promise<void> {
    const removed = owner.removeMember(member);
    if (owner.memberCount === 0 && this.runners.get(slot) === owner) {
      this.runners.delete(slot);
      this.stopping.set(slot, removed);
      void removed.finally(() => {
        if (this.stopping.get(slot) === removed) this.stopping.delete(slot);
      });
    }
    await removed;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.storage.ping();
  }

  /** Stops every subscription (pending retries are abandoned unacknowledged), then closes the storage. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pruneTimer);
    this.stopHearingAppends?.();
    clearTimeout(this.elsewhereWake);
    const runners = [...this.runners.values()];
    this.runners.clear();
    await Promise.all([...runners.map((runner) => runner.stop()), ...this.stopping.values()]);
    this.storage.close();
    this.options.wakeSource?.close();
  }

  private wakeForElsewhere(): void {
    this.elsewhereWake = undefined;
    const appended = [...this.appendedElsewhere.values()];
    this.appendedElsewhere.clear();
    for (const { topic, partition } of appended) this.wake(topic, partition);
  }

  /** Wakes every group reading the topic's partition. */
  private wake(topic: string, partition: number): void {
    for (const runner of this.runnersOf(topic)) runner.notify(partition);
  }

  private hasRunnersOf(topic: string): boolean {
    for (const _runner of this.runnersOf(topic)) return true;
    return false;
  }

  private *runnersOf(topic: string): Iterable<GroupRunner> {
    const prefix = `${topic}\u0000`;
    for (const [slot, runner] of this.runners) if (slot.startsWith(prefix)) yield runner;
  }

  private prune(): void {
    try {
      const pruned = this.storage.pruneBefore(new Date(Date.now() - (this.options.retentionMs ?? 7 * 24 * HOUR_MS)));
      if (pruned > 0) this.logger.info({ pruned }, 'bus log pruned');
    } catch (error) {
      this.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'bus log prune failed');
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

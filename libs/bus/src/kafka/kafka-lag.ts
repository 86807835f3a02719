import type { Logger } from '@vaultline/logger';
import type { ConsumerLag } from '../bus.port';
import { describeKafkaError } from './kafka-errors';

/** What kafkajs's admin.fetchOffsets({ groupId, topics }) answers (kafkajs docs/Admin.md, "Fetch consumer group offsets"). */
export type GroupOffsets = Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>;
/** What admin.fetchTopicOffsets(topic) answers: per partition the end (`high`) and the earliest retained (`low`) offset. */
export type TopicOffsets = Array<{ partition: number; offset: string; high: string; low: string }>;

/**
 * A group's lag on each topic: per partition, the topic's end offset minus the group's committed offset,
 * summed. A partition the group never committed (offset '-1') counts everything still retained (high −
 * low): with fromBeginning, that is what the group will read. Offsets are strings of int64: BigInt.
 */
export function lagOf(group: string, committed: GroupOffsets, ends: Record<string, TopicOffsets>): ConsumerLag[] {
  return committed.map(({ topic, partitions }) => {
    const byPartition = new Map((ends[topic] ?? []).map((entry) => [entry.partition, entry]));
    let lag = 0n;
    for (const { partition, offset } of partitions) {
      const end = byPartition.get(partition);
      if (!end) continue;
      const high = BigInt(end.high);
      const from = offset === '-1' ? BigInt(end.low) : BigInt(offset);
      if (high > from) lag += high - from;
    }
    return { group, topic, lag: Number(lag) };
  });
}

/**
 * The consumer lag as the metrics scrape reads it: the last measurement, and a new one started in the
 * background when that is older than the interval (one at a time: however many scrapes, at most one
 * round of admin requests per interval). Groups asked for once are measured from then on.
 */
export class LagCache {
  private readonly groups = new Map<string, string[]>();
  private readonly lags = new Map<string, ConsumerLag[]>();
  private startedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly measure: (groups: Array<{ group: string; topics: string[] }>) => Promise<ConsumerLag[]>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  read(groups: Array<{ group: string; topics: string[] }>): ConsumerLag[] {
    for (const { group, topics } of groups) this.groups.set(group, [...topics]);
    if (!this.inFlight && Date.now() - this.startedAt >= this.intervalMs) {
      this.startedAt = Date.now();
      this.inFlight = this.measure([...this.groups].map(([group, topics]) => ({ group, topics })))
        .then((lags) => {
          this.lags.clear();
          for (const lag of lags) this.lags.set(lag.group, [...(this.lags.get(lag.group) ?? []), lag]);
        })
        // The last measurement stays: a broker outage does not turn a lag into none.
        .catch((error: unknown) => this.logger.debug({ error: describeKafkaError(error) }, 'kafka consumer lag not measured'))
        .finally(() => (this.inFlight = undefined));
    }
    return groups.flatMap(({ group }) => this.lags.get(group) ?? []);
  }

  async settled(): Promise<void> {
    await this.inFlight;
  }
}

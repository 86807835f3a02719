import type { ConsumerLag } from '../bus.port';

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

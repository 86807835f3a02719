import type { BusMessage } from '../bus.port';

export interface LogRecord {
  /** Position in its topic partition: 0, 1, 2, … never reused, even after pruning. */
  offset: number;
  message: BusMessage;
}

export interface LogAppend {
  partition: number;
  message: BusMessage;
}

/** The next offset a consumer group has to handle in one topic partition. */
export interface GroupOffset {
  group: string;
  topic: string;
  partition: number;
  nextOffset: number;
}

/**
 * Where the LogBus keeps its partitioned message log and the offsets of each consumer group.
 * Synchronous on purpose: both storages (memory, better-sqlite3) are in-process.
 */
export interface LogStorage {
  /** Appends every message atomically, each at the end of its topic partition; returns them as stored, in order. */
  append(entries: LogAppend[]): LogRecord[];
  /** Records of one topic partition from `fromOffset` on (or from the oldest kept, if pruned), in order. */
  read(topic: string, partition: number, fromOffset: number, limit: number): LogRecord[];
  /** The offset the next append to this partition gets (0 for an empty one): the end of the log. */
  endOffset(topic: string, partition: number): number;
  /** The next offset the group has to handle; 0 for a group that never committed (from the beginning). */
  committedOffset(group: string, topic: string, partition: number): number;
  /** Stores these offsets together (one write). */
  commit(offsets: GroupOffset[]): void;
  /** Deletes records published before `time`; returns how many. */
  pruneBefore(time: Date): number;
  /** Throws when the storage cannot be used. */
  ping(): void;
  close(): void;
}

import type { BusMessage } from '../bus.port';

export interface LogRecord {
  /** Position in its topic partition: 0, 1, 2, … never reused, even after pruning. */
  offset: number;
  message: BusMessage;
}

/** A record another thread appended to the same storage and committed, with its partition. */
export interface AppendedRecord {
  partition: number;
  record: LogRecord;
}

export interface LogAppend {
  partition: number;
  message: BusMessage;
}

/**
 * Where the LogBus keeps its partitioned message log and the offsets of each consumer group.
 * Synchronous on purpose: both storages (memory, better-sqlite3) are in-process.
 */
export interface LogStorage {
  /** Appends every message atomically, each at the end of its topic partition. */
  append(entries: LogAppend[]): void;
  /** Records of one topic partition from `fromOffset` on (or from the oldest kept, if pruned), in order. */
  read(topic: string, partition: number, fromOffset: number, limit: number): LogRecord[];
  /** The next offset the group has to handle; 0 for a group that never committed (from the beginning). */
  committedOffset(group: string, topic: string, partition: number): number;
  commit(group: string, topic: string, partition: number, nextOffset: number): void;
  /** Deletes records published before `time`; returns how many. */
  pruneBefore(time: Date): number;
  /** Throws when the storage cannot be used. */
  ping(): void;
  /**
   * Storages another thread of this process can append to (SQLite files) report those appends once
   * committed, records included, so consumers here wake at once instead of at their next poll.
   * Returns the unsubscribe function.
   */
  onAppendElsewhere?(listener: (appended: AppendedRecord[]) => void): () => void;
  /**
   * Keeps records reported by onAppendElsewhere with this storage's own recent records, so that
   * consumers here read them without a query. The bus calls it for the topics it has consumers of.
   */
  keepAppendedElsewhere?(appended: AppendedRecord[]): void;
  close(): void;
}

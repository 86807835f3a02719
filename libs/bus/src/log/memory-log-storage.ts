import type { GroupOffset, LogAppend, LogRecord, LogStorage } from './log-storage.port';

interface Partition {
  /** Offset of records[0]; moves forward when old records are pruned. */
  base: number;
  records: Array<LogRecord & { publishedAt: number }>;
}

/** In-process log for tests and the memory:// profile; everything is lost on exit. */
export class MemoryLogStorage implements LogStorage {
  private readonly partitions = new Map<string, Partition>();
  private readonly offsets = new Map<string, number>();
  private closed = false;

  append(entries: LogAppend[]): LogRecord[] {
    this.ping();
    const now = Date.now();
    return entries.map(({ partition, message }) => {
      const log = this.partitionOf(message.topic, partition);
      const offset = log.base + log.records.length;
      log.records.push({ offset, message: { ...message, headers: { ...message.headers } }, publishedAt: now });
      return { offset, message: { ...message, headers: { ...message.headers } } };
    });
  }

  read(topic: string, partition: number, fromOffset: number, limit: number): LogRecord[] {
    this.ping();
    const log = this.partitions.get(slot(topic, partition));
    if (!log) return [];
    const start = Math.max(0, fromOffset - log.base);
    return log.records.slice(start, start + limit).map(({ offset, message }) => ({ offset, message: { ...message, headers: { ...message.headers } } }));
  }

  endOffset(topic: string, partition: number): number {
    const log = this.partitions.get(slot(topic, partition));
    return log ? log.base + log.records.length : 0;
  }

  committedOffset(group: string, topic: string, partition: number): number {
    return this.offsets.get(`${group}\u0000${slot(topic, partition)}`) ?? 0;
  }

  commit(offsets: GroupOffset[]): void {
    this.ping();
    for (const { group, topic, partition, nextOffset } of offsets) this.offsets.set(`${group}\u0000${slot(topic, partition)}`, nextOffset);
  }

  pruneBefore(time: Date): number {
    let pruned = 0;
    for (const log of this.partitions.values()) {
      const keep = log.records.findIndex((record) => record.publishedAt >= time.getTime());
      const drop = keep === -1 ? log.records.length : keep;
      log.records.splice(0, drop);
      log.base += drop;
      pruned += drop;
    }
    return pruned;
  }

  ping(): void {
    if (this.closed) throw new Error('memory bus storage is closed');
  }

  close(): void {
    this.closed = true;
  }

  private partitionOf(topic: string, partition: number): Partition {
    const key = slot(topic, partition);
    let log = this.partitions.get(key);
    if (!log) {
      log = { base: 0, records: [] };
      this.partitions.set(key, log);
    }
    return log;
  }
}

const slot = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

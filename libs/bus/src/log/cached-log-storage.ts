import type { GroupOffset, LogAppend, LogRecord, LogStorage } from './log-storage.port';
import type { AppendedRecord, WakeSource } from './wake-source';

/** Records kept in memory per partition: what consumers that keep up read next. */
const TAIL_RECORDS = 512;
/** How long committed offsets wait to be written together. */
const OFFSET_FLUSH_MS = 100;

/**
 * Speed for a storage behind a file (SQLite), as a decorator of the same port:
 *
 * - **Tails.** The last records of each partition are kept in memory, so consumers that keep up read
 *   them without a query: this storage's own appends, and those a wake source announces for the
 *   partitions read here (another thread's appends). Only a contiguous run of offsets is kept (a gap —
 *   another process appending, or announcements crossing — starts the run again), and a read is served
 *   from it only when it starts inside the run: anything before or after comes from the storage.
 * - **Offsets written behind.** Offsets committed within OFFSET_FLUSH_MS (every group, every partition)
 *   are written in one commit: fewer WAL writes, fewer waits for the write lock on a shared file. A
 *   crash in between delivers those messages again, which at-least-once consumers handle; this storage
 *   reads its pending offsets itself, and close() writes them.
 */
export class CachedLogStorage implements LogStorage {
  private readonly tails = new Map<string, LogRecord[]>();
  private readonly readHere = new Set<string>();
  private readonly pendingOffsets = new Map<string, GroupOffset>();
  private offsetWrite: NodeJS.Timeout | undefined;
  private readonly stopHearing: (() => void) | undefined;

  constructor(
    private readonly storage: LogStorage,
    options: { wakeSource?: WakeSource } = {},
  ) {
    this.stopHearing = options.wakeSource?.onAppend((appended) => this.keepAnnounced(appended));
  }

  append(entries: LogAppend[]): LogRecord[] {
    const appended = this.storage.append(entries);
    // Only after the commit: a rolled-back append must not be readable.
    appended.forEach((record, index) => this.remember(record.message.topic, entries[index]!.partition, record));
    return appended;
  }

  read(topic: string, partition: number, fromOffset: number, limit: number): LogRecord[] {
    const key = tailKey(topic, partition);
    this.readHere.add(key);
    const tail = this.tails.get(key);
    const first = tail?.[0]?.offset;
    if (tail && first !== undefined && fromOffset >= first && fromOffset - first < tail.length) {
      return tail.slice(fromOffset - first, fromOffset - first + limit);
    }
    return this.storage.read(topic, partition, fromOffset, limit);
  }

  endOffset(topic: string, partition: number): number {
    return this.storage.endOffset(topic, partition);
  }

  committedOffset(group: string, topic: string, partition: number): number {
    return this.pendingOffsets.get(offsetKey(group, topic, partition))?.nextOffset ?? this.storage.committedOffset(group, topic, partition);
  }

  commit(offsets: GroupOffset[]): void {
    for (const offset of offsets) this.pendingOffsets.set(offsetKey(offset.group, offset.topic, offset.partition), offset);
    this.scheduleOffsetWrite();
  }

  pruneBefore(time: Date): number {
    return this.storage.pruneBefore(time);
  }

  ping(): void {
    this.storage.ping();
  }

  close(): void {
    this.stopHearing?.();
    clearTimeout(this.offsetWrite);
    this.offsetWrite = undefined;
    // Written now; a failure here leaves them to be delivered again after the restart.
    if (this.pendingOffsets.size > 0) this.storage.commit([...this.pendingOffsets.values()]);
    this.pendingOffsets.clear();
    this.storage.close();
  }

  private scheduleOffsetWrite(): void {
    if (this.offsetWrite) return;
    this.offsetWrite = setTimeout(() => {
      this.offsetWrite = undefined;
      try {
        this.storage.commit([...this.pendingOffsets.values()]);
      } catch {
        // SQLITE_BUSY from another process, say: the offsets stay pending (and readable here) and go with the next write.
        this.scheduleOffsetWrite();
        return;
      }
      this.pendingOffsets.clear();
    }, OFFSET_FLUSH_MS);
    this.offsetWrite.unref();
  }

  /** Another bus's committed appends: worth memory only for the partitions read here. */
  private keepAnnounced(appended: AppendedRecord[]): void {
    for (const { partition, record } of appended) {
      if (this.readHere.has(tailKey(record.message.topic, partition))) this.remember(record.message.topic, partition, record);
    }
  }

  private remember(topic: string, partition: number, record: LogRecord): void {
    const key = tailKey(topic, partition);
    const tail = this.tails.get(key);
    const last = tail?.[tail.length - 1];
    // Already kept, or older than the run (another thread's announcement arriving after this thread's own append).
    if (last && record.offset <= last.offset) return;
    if (!tail || !last || record.offset !== last.offset + 1) {
      this.tails.set(key, [record]);
      return;
    }
    tail.push(record);
    // Trimmed in chunks: one splice per TAIL_RECORDS appends, not one per append.
    if (tail.length >= 2 * TAIL_RECORDS) tail.splice(0, tail.length - TAIL_RECORDS);
  }
}

function offsetKey(group: string, topic: string, partition: number): string {
  return `${group}\u0000${topic}\u0000${partition}`;
}

function tailKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

import { BroadcastChannel } from 'node:worker_threads';
import type { LogRecord } from './log-storage.port';

/** A record appended and committed by another bus on the same storage, with its partition. */
export interface AppendedRecord {
  partition: number;
  record: LogRecord;
}

/**
 * Tells the buses of one storage file what the others appended, so that their consumers wake at once
 * instead of at their next poll, and read the records from memory instead of the file. Only the
 * embedded profile uses one: a service on a thread of its own shares the bus file with the main thread.
 */
export interface WakeSource {
  /** Tells the others what this bus appended, once committed. */
  announce(appended: AppendedRecord[]): void;
  /** Hears what the others appended; returns the function that stops listening. */
  onAppend(listener: (appended: AppendedRecord[]) => void): () => void;
  close(): void;
}

/**
 * A WakeSource across the threads of this process: every BroadcastChannel of the same name hears the
 * others (not itself), and the records cross as structured clones. Name it after the bus file.
 */
export class BroadcastWakeSource implements WakeSource {
  private readonly channel: BroadcastChannel;

  constructor(name: string) {
    this.channel = new BroadcastChannel(`vaultline-bus:${name}`);
    // Listening alone never keeps the process alive.
    this.channel.unref();
  }

  announce(appended: AppendedRecord[]): void {
    this.channel.postMessage(appended);
  }

  onAppend(listener: (appended: AppendedRecord[]) => void): () => void {
    const onMessage = (event: unknown): void => listener((event as { data: AppendedRecord[] }).data);
    this.channel.addEventListener('message', onMessage);
    return () => this.channel.removeEventListener('message', onMessage);
  }

  close(): void {
    this.channel.close();
  }
}

import type { ForwardRecord } from './forward-record';
import type { ForwardRecordRepository, TransactionRunner } from './ports';
import { forwardCompletedEvent } from './forward-record-events';

/** Stores the record and publishes forward.completed in the same commit (timings to 0.01 ms). */
export type RecordForward = (record: ForwardRecord) => Promise<void>;

export function recordForward({ records, transaction }: { records: ForwardRecordRepository; transaction: TransactionRunner }): RecordForward {
  return async (record) => {
    const rounded: ForwardRecord = { ...record, durationMs: roundMs(record.durationMs), addedMs: roundMs(record.addedMs) };
    await transaction((uow) => {
      records.insert(uow, rounded);
      uow.publish(forwardCompletedEvent(rounded));
    });
  };
}

const roundMs = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * Writes forward records off the merchant's path: its commit (and the outbox relay and consumers
 * it wakes) would otherwise sit in the merchant's latency. That loses nothing: the answer never
 * depended on the write (a failed write is reported through onRecordFailure and the answer still
 * goes out), and a crash before the commit loses the record whether or not the answer was awaited.
 */
export interface ForwardAudit {
  write(record: ForwardRecord): void;
  /** Resolves once every record started so far is written (or its failure reported): the app waits for it before it stops. */
  recordsWritten(): Promise<void>;
}

export interface ForwardAuditPorts {
  recordForward: RecordForward;
  /** Called when the audit write fails: the merchant still gets the answer (or the error). */
  onRecordFailure: (error: unknown, record: ForwardRecord) => void;
}

export function forwardAudit({ recordForward, onRecordFailure }: ForwardAuditPorts): ForwardAudit {
  const writing = new Set<Promise<void>>();
  return {
    write(record) {
      const written: Promise<void> = recordForward(record)
        .catch((error: unknown) => onRecordFailure(error, record))
        .finally(() => writing.delete(written));
      writing.add(written);
    },
    async recordsWritten() {
      await Promise.all(writing);
    },
  };
}

import { newId, sleep, type Clock, type Scope } from '@vaultline/core';
import { ConcurrentModificationError, DuplicateKeyError } from '@vaultline/store';
import { importJobEvent, type ImportEventKind } from './import-job-events';
import { withOutcome, type ImportJob, type ImportOutcome } from './import-job';
import { KeyedMutex } from './keyed-mutex';
import type { ImportJobRepository, TransactionRunner } from '../ports';

/** A change to one job; `event` is published in the same commit. null = nothing to change. */
export type JobChange = { job: ImportJob; event?: ImportEventKind } | null;

export interface ImportJobWriter {
  /**
   * Reads the job, applies `change` and commits it, retrying on a concurrent modification by
   * another process. Returns the job as stored afterwards, or null when it does not exist.
   */
  change(scope: Scope, id: string, change: (current: ImportJob) => JobChange): Promise<ImportJob | null>;
  /**
   * Records one payment method's outcome and counts it, once per job and business key, whatever
   * the redeliveries and the processes. Returns the updated job, or null when this business key was
   * already accounted for in this job (or the job is unknown).
   */
  recordOutcome(
    scope: Scope,
    jobId: string,
    businessKey: string,
    outcome: ImportOutcome,
    reason: string | null,
    withoutSecurityCode?: boolean,
  ): Promise<ImportJob | null>;
}

export interface ImportJobWriterPorts {
  jobs: ImportJobRepository;
  transaction: TransactionRunner;
  clock: Clock;
}

interface PendingOutcome {
  businessKey: string;
  outcome: ImportOutcome;
  reason: string | null;
  withoutSecurityCode: boolean;
  resolve(job: ImportJob | null): void;
  reject(error: unknown): void;
}

const MAX_CONFLICT_RETRIES = 50;

/**
 * The one writer of import jobs in this process. A job's writes go one at a time (the runner's
 * checkpoints and the consumer's counts meet on the same document), and outcomes are counted in
 * batches: those that arrive while the job's previous write is under way join one batch, committed
 * in one unit of work (one read of the job, one lookup of the batch's keys, one commit). With 8 bus
 * partitions and the runner all counting the same job, a commit per card would serialise every
 * card behind one commit round trip. Built once by the composition root and shared.
 */
export function importJobWriter({ jobs, transaction, clock }: ImportJobWriterPorts): ImportJobWriter {
  const mutex = new KeyedMutex();
  /** Outcomes waiting for their job's next write, by merchant, mode and job id. */
  const openBatches = new Map<string, PendingOutcome[]>();

  const change: ImportJobWriter['change'] = (scope, id, changeOf) =>
    mutex.run(id, () =>
      retryOnConflict(async () => {
        const current = await jobs.get(scope, id);
        if (!current) return null;
        const next = changeOf(current);
        if (!next) return current;
        return transaction((uow) => {
          const stored = jobs.update(uow, next.job);
          if (next.event) uow.publish(importJobEvent(next.event, stored));
          return stored;
        });
      }),
    );

  const recordOutcome: ImportJobWriter['recordOutcome'] = (scope, jobId, businessKey, outcome, reason, withoutSecurityCode = false) =>
    new Promise((resolve, reject) => {
      // A card that was not imported has no token, with or without a security code.
      const entry: PendingOutcome = { businessKey, outcome, reason, withoutSecurityCode: withoutSecurityCode && outcome !== 'failed', resolve, reject };
      const key = `${scope.merchantId}/${scope.mode}/${jobId}`;
      const open = openBatches.get(key);
      if (open) {
        open.push(entry);
        return;
      }
      const batch = [entry];
      openBatches.set(key, batch);
      void mutex.run(jobId, async () => {
        // The batch closes when its turn comes: later outcomes start the next one.
        openBatches.delete(key);
        await recordBatch(scope, jobId, batch);
      });
    });

  /** Records a batch and settles each of its callers: the job as stored, or null when already accounted for. */
  async function recordBatch(scope: Scope, jobId: string, batch: PendingOutcome[]): Promise<void> {
    try {
      const stored = await retryOnConflict(() => commitBatch(scope, jobId, batch));
      batch.forEach((entry, i) => entry.resolve(stored.recorded[i] ? stored.job : null));
    } catch (error) {
      if (error instanceof DuplicateKeyError && batch.length > 1) {
        // Another process accounted for one of them first: record them one by one.
        for (const entry of batch) await recordBatch(scope, jobId, [entry]);
        return;
      }
      // A single outcome another process recorded first counts as already accounted for.
      if (error instanceof DuplicateKeyError) batch.forEach((entry) => entry.resolve(null));
      else batch.forEach((entry) => entry.reject(error));
    }
  }

  async function commitBatch(scope: Scope, jobId: string, batch: PendingOutcome[]): Promise<{ job: ImportJob | null; recorded: boolean[] }> {
    const [job, seen] = await Promise.all([jobs.get(scope, jobId), jobs.accountedKeys(scope, jobId, [...new Set(batch.map((entry) => entry.businessKey))])]);
    // Once per job and business key, also within the batch.
    const recorded = batch.map((entry) => {
      if (!job || seen.has(entry.businessKey)) return false;
      seen.add(entry.businessKey);
      return true;
    });
    if (!job || !recorded.includes(true)) return { job, recorded };
    const now = clock.now().toISOString();
    const stored = await transaction((uow) => {
      let next = job;
      batch.forEach((entry, i) => {
        if (!recorded[i]) return;
        jobs.insertItem(uow, {
          id: newId(),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          job_id: jobId,
          business_key: entry.businessKey,
          outcome: entry.outcome,
          reason: entry.reason,
          ...(entry.withoutSecurityCode ? { without_security_code: true } : {}),
          recorded_at: now,
        });
        next = withOutcome(next, entry.outcome, entry.reason, entry.withoutSecurityCode);
      });
      return jobs.update(uow, next);
    });
    return { job: stored, recorded };
  }

  return { change, recordOutcome };
}

async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      await sleep(Math.min(50, attempt * 2));
    }
  }
}

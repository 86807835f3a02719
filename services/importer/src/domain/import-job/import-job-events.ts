import { importCompletedV1, importFailedV1, importStartedV1 } from '@vaultline/contracts';
import { eventMessage } from '@vaultline/bus';
import { scopeOfDocument } from '@vaultline/core';
import type { OutboxMessage } from '@vaultline/store';
import type { ImportJob } from './import-job';

// import.started / completed / failed built from the job, in its merchant and mode: ids, provider, counts, reason. Never a secret.

/** The counts as the events carry them: jobs stored before imported_without_security_code was counted read 0. */
const countsOf = (job: ImportJob) => ({ ...job.counts, imported_without_security_code: job.counts.imported_without_security_code ?? 0 });

export function importStartedEvent(job: ImportJob): OutboxMessage {
  return eventMessage(importStartedV1, { scope: scopeOfDocument(job), data: { import_id: job.id, provider: job.provider } });
}

export function importCompletedEvent(job: ImportJob): OutboxMessage {
  return eventMessage(importCompletedV1, {
    scope: scopeOfDocument(job),
    data: { import_id: job.id, provider: job.provider, state: 'finished', counts: countsOf(job), finished_at: job.finished_at ?? new Date().toISOString() },
  });
}

export function importFailedEvent(job: ImportJob): OutboxMessage {
  return eventMessage(importFailedV1, {
    scope: scopeOfDocument(job),
    data: {
      import_id: job.id,
      provider: job.provider,
      state: 'failed',
      reason: job.failure_reason ?? 'unknown',
      ...(job.failure_detail ? { failure_detail: job.failure_detail } : {}),
      counts: countsOf(job),
      finished_at: job.finished_at ?? new Date().toISOString(),
    },
  });
}

export type ImportEventKind = 'started' | 'completed' | 'failed';

const importEvents: Record<ImportEventKind, (job: ImportJob) => OutboxMessage> = {
  started: importStartedEvent,
  completed: importCompletedEvent,
  failed: importFailedEvent,
};

export const importJobEvent = (kind: ImportEventKind, job: ImportJob): OutboxMessage => importEvents[kind](job);

import { importCompletedV1, importFailedV1, importStartedV1, domainEvent, type DomainEvent } from '@vaultline/contracts';
import { scopeOfDocument } from '@vaultline/core';
import type { ImportJob } from './import-job';

// import.started / completed / failed built from the job, in its merchant and mode: ids, provider, counts, reason. Never a secret.

/** The counts as the events carry them: jobs stored before imported_without_security_code was counted read 0. */
const countsOf = (job: ImportJob) => ({ ...job.counts, imported_without_security_code: job.counts.imported_without_security_code ?? 0 });

export function importStartedEvent(job: ImportJob): DomainEvent {
  return domainEvent(importStartedV1, { scope: scopeOfDocument(job), data: { import_id: job.id, provider: job.provider } });
}

export function importCompletedEvent(job: ImportJob): DomainEvent {
  return domainEvent(importCompletedV1, {
    scope: scopeOfDocument(job),
    data: { import_id: job.id, provider: job.provider, state: 'finished', counts: countsOf(job), finished_at: job.finished_at ?? new Date().toISOString() },
  });
}

export function importFailedEvent(job: ImportJob): DomainEvent {
  return domainEvent(importFailedV1, {
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

const importEvents: Record<ImportEventKind, (job: ImportJob) => DomainEvent> = {
  started: importStartedEvent,
  completed: importCompletedEvent,
  failed: importFailedEvent,
};

export const importJobEvent = (kind: ImportEventKind, job: ImportJob): DomainEvent => importEvents[kind](job);

import { importCompletedV1, importFailedV1, importStartedV1 } from '@vaultline/contracts';
import { eventMessage } from '@vaultline/bus';
import type { OutboxMessage } from '@vaultline/store';
import type { ImportJob } from '../domain/import-job';
import type { ImportEventKind } from '../domain/ports';

/** import.started / completed / failed built from the job: ids, provider, counts, reason. Never a secret. */
export function importEventMessage(kind: ImportEventKind, job: ImportJob): OutboxMessage {
  const counts = { ...job.counts };
  switch (kind) {
    case 'started':
      return eventMessage(importStartedV1, { merchantId: job.merchant_id, data: { import_id: job.id, provider: job.provider } });
    case 'completed':
      return eventMessage(importCompletedV1, {
        merchantId: job.merchant_id,
        data: { import_id: job.id, provider: job.provider, state: 'finished', counts, finished_at: job.finished_at ?? new Date().toISOString() },
      });
    case 'failed':
      return eventMessage(importFailedV1, {
        merchantId: job.merchant_id,
        data: {
          import_id: job.id,
          provider: job.provider,
          state: 'failed',
          reason: job.failure_reason ?? 'unknown',
          counts,
          finished_at: job.finished_at ?? new Date().toISOString(),
        },
      });
  }
}

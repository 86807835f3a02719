import type { ImportJob } from '../domain/import-job/import-job';

/** The import job as the API shows it: progress and reasons, never a credential. */
export interface ImportJobView {
  id: string;
  object: 'token_import';
  /** True for a job created with a live key (its tokens are live ones). */
  livemode: boolean;
  provider: string;
  state: ImportJob['state'];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: Required<ImportJob['counts']>;
  /** Why the job failed (state failed): provider_authentication_failed, provider_unreachable, forwarding_not_enabled … */
  failure_reason: string | null;
  /** What the merchant can do about the failure (e.g. what to ask the platform for); null otherwise. */
  failure_detail: string | null;
  /** Why single payment methods were not imported, with how many each. */
  failures: { reason: string; count: number }[];
}

export function toImportJobView(job: ImportJob): ImportJobView {
  return {
    id: job.id,
    object: 'token_import',
    livemode: job.mode === 'live',
    provider: job.provider,
    state: job.state,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    counts: { ...job.counts, imported_without_security_code: job.counts.imported_without_security_code ?? 0 },
    failure_reason: job.failure_reason,
    failure_detail: job.failure_detail ?? null,
    failures: Object.entries(job.failure_reasons)
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
  };
}

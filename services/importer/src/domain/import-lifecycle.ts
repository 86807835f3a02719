import type { Clock } from '@vaultline/core';
import { ended, isAccountedFor, isEnded, type ImportJob, type ImportOutcome } from './import-job';
import type { ImportCredentialIssuer, ImportJobRepository, ImporterLog } from './ports';

export interface LifecycleDeps {
  jobs: ImportJobRepository;
  issuer: ImportCredentialIssuer;
  clock: Clock;
  log: ImporterLog;
}

/**
 * Counts one payment method (once per job and business key) and finishes the job when it was the
 * last one. Called by the token.created consumer and by the runner for refused cards.
 */
export async function accountFor(
  deps: LifecycleDeps,
  merchantId: string,
  jobId: string,
  businessKey: string,
  outcome: ImportOutcome,
  reason: string | null,
): Promise<void> {
  const job = await deps.jobs.recordOutcome(merchantId, jobId, businessKey, outcome, reason);
  if (job && job.state === 'running' && isAccountedFor(job)) await completeIfAccountedFor(deps, merchantId, jobId);
}

/** Moves a running job whose payment methods are all accounted for to finished, once. */
export async function completeIfAccountedFor(deps: LifecycleDeps, merchantId: string, jobId: string): Promise<ImportJob | null> {
  let finishedHere = false;
  const job = await deps.jobs.mutate(merchantId, jobId, (current) => {
    finishedHere = false;
    if (current.state !== 'running' || !isAccountedFor(current)) return null;
    finishedHere = true;
    return { job: ended(current, 'finished', deps.clock.now()), event: 'completed' };
  });
  if (finishedHere && job) {
    deps.log.info({ import_id: job.id, merchant_id: merchantId, counts: job.counts }, 'import finished');
    await revokeImportKey(deps, job);
  }
  return job;
}

/** Ends the job as failed with a reason (unless it already ended) and revokes its key. */
export async function failImport(deps: LifecycleDeps, merchantId: string, jobId: string, reason: string): Promise<ImportJob | null> {
  let failedHere = false;
  const job = await deps.jobs.mutate(merchantId, jobId, (current) => {
    failedHere = false;
    if (isEnded(current)) return null;
    failedHere = true;
    return { job: ended(current, 'failed', deps.clock.now(), reason), event: 'failed' };
  });
  if (failedHere && job) {
    deps.log.warn({ import_id: job.id, merchant_id: merchantId, reason }, 'import failed');
    await revokeImportKey(deps, job);
  }
  return job;
}

/**
 * Revokes the job-scoped key at the gateway and notes it. When the gateway cannot be reached the
 * key stays noted as unrevoked and the scheduler's sweep tries again (it also expires on its own).
 */
export async function revokeImportKey(deps: LifecycleDeps, job: ImportJob): Promise<void> {
  if (!job.import_key_id || job.import_key_revoked) return;
  try {
    await deps.issuer.revoke(job.merchant_id, job.import_key_id);
  } catch (error) {
    deps.log.warn({ import_id: job.id, err: error }, 'could not revoke the import key; will retry');
    return;
  }
  await deps.jobs.mutate(job.merchant_id, job.id, (current) => (current.import_key_revoked ? null : { job: { ...current, import_key_revoked: true } }));
}

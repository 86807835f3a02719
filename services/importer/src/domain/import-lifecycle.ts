import { scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import { ended, isAccountedFor, isEnded, type ImportJob, type ImportOutcome } from './import-job/import-job';
import type { ImportJobWriter } from './import-job/import-job-writer';
import type { ImportCredentialIssuer, ImporterLog } from './ports';

/**
 * Revokes the job-scoped key at the gateway and notes it. When the gateway cannot be reached the
 * key stays noted as unrevoked and the scheduler's sweep tries again (it also expires on its own).
 */
export type RevokeImportKey = (job: ImportJob) => Promise<void>;

export function revokeImportKey({ issuer, writer, log }: { issuer: ImportCredentialIssuer; writer: ImportJobWriter; log: ImporterLog }): RevokeImportKey {
  return async (job) => {
    if (!job.import_key_id || job.import_key_revoked) return;
    try {
      await issuer.revoke(scopeOfDocument(job), job.import_key_id);
    } catch (error) {
      log.warn({ import_id: job.id, err: error }, 'could not revoke the import key; will retry');
      return;
    }
    await writer.change(scopeOfDocument(job), job.id, (current) => (current.import_key_revoked ? null : { job: { ...current, import_key_revoked: true } }));
  };
}

export interface EndImportPorts {
  writer: ImportJobWriter;
  clock: Clock;
  log: ImporterLog;
  revokeImportKey: RevokeImportKey;
}

/** Moves a running job whose payment methods are all accounted for to finished, once. */
export type CompleteIfAccountedFor = (scope: Scope, jobId: string) => Promise<ImportJob | null>;

export function completeIfAccountedFor({ writer, clock, log, revokeImportKey }: EndImportPorts): CompleteIfAccountedFor {
  return async (scope, jobId) => {
    let finishedHere = false;
    const job = await writer.change(scope, jobId, (current) => {
      finishedHere = false;
      if (current.state !== 'running' || !isAccountedFor(current)) return null;
      finishedHere = true;
      return { job: ended(current, 'finished', clock.now()), event: 'completed' };
    });
    if (finishedHere && job) {
      log.info({ import_id: job.id, merchant_id: scope.merchantId, mode: scope.mode, counts: job.counts }, 'import finished');
      await revokeImportKey(job);
    }
    return job;
  };
}

/** Ends the job as failed with a reason, and what the merchant can do about it (unless it already ended); revokes its key. */
export type FailImport = (scope: Scope, jobId: string, reason: string, detail?: string | null) => Promise<ImportJob | null>;

export function failImport({ writer, clock, log, revokeImportKey }: EndImportPorts): FailImport {
  return async (scope, jobId, reason, detail = null) => {
    let failedHere = false;
    const job = await writer.change(scope, jobId, (current) => {
      failedHere = false;
      if (isEnded(current)) return null;
      failedHere = true;
      return { job: ended(current, 'failed', clock.now(), reason, detail), event: 'failed' };
    });
    if (failedHere && job) {
      log.warn({ import_id: job.id, merchant_id: scope.merchantId, mode: scope.mode, reason }, 'import failed');
      await revokeImportKey(job);
    }
    return job;
  };
}

/**
 * Counts one payment method (once per job and business key) and finishes the job when it was the
 * last one. Called by the token.created consumer and by the import run for refused cards.
 */
export type AccountForOutcome = (
  scope: Scope,
  jobId: string,
  businessKey: string,
  outcome: ImportOutcome,
  reason: string | null,
  withoutSecurityCode?: boolean,
) => Promise<void>;

export function accountForOutcome({
  writer,
  completeIfAccountedFor,
}: {
  writer: ImportJobWriter;
  completeIfAccountedFor: CompleteIfAccountedFor;
}): AccountForOutcome {
  return async (scope, jobId, businessKey, outcome, reason, withoutSecurityCode = false) => {
    const job = await writer.recordOutcome(scope, jobId, businessKey, outcome, reason, withoutSecurityCode);
    if (job && job.state === 'running' && isAccountedFor(job)) await completeIfAccountedFor(scope, jobId);
  };
}

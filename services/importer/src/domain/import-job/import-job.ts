import type { Mode, Scope } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/** preparing → running → finished | failed. */
export const IMPORT_STATES = ['preparing', 'running', 'finished', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export interface ImportCounts {
  /** Payment methods found on the platform so far; final once the listing is complete. */
  total: number;
  imported: number;
  updated: number;
  failed: number;
  /**
   * Of imported + updated, the tokens that hold no security code: the platform had none left to
   * send (used up by an earlier forward, or older than its lifetime). A normal outcome: the card is
   * in the vault; only a payment that needs the security code must collect it again. Absent in
   * jobs stored before it was counted (read as 0).
   */
  imported_without_security_code?: number;
}

/** Where the platform listing stands: the provider's own cursor after the last payment method done. */
export interface ImportCheckpoint {
  /** Provider-specific JSON (provider_a: customers cursor, customer index, methods cursor, method index). */
  position: Record<string, unknown> | null;
  /** Payment methods handed to the platform up to `position` (they make counts.total). */
  enumerated: number;
  listing_complete: boolean;
}

/**
 * An automatic import job. The platform credentials and the job-scoped import key are held
 * sealed (encrypted) only while the job can still run; they are removed when it ends.
 */
export interface ImportJob extends StoredDocument {
  /** The mode of the key that created it: the tokens it imports are created in that mode. */
  mode: Mode;
  provider: string;
  state: ImportState;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: ImportCounts;
  /** Why single payment methods were not imported: reason code → how many. Never card data. */
  failure_reasons: Record<string, number>;
  /** Why the whole job failed (state failed). */
  failure_reason: string | null;
  /** What the merchant can do about it (e.g. what to ask the platform for); null when there is nothing to add. */
  failure_detail?: string | null;
  checkpoint: ImportCheckpoint;
  sealed_credentials?: string;
  sealed_import_key?: string;
  /** The gateway's id of the job-scoped key that /cde-import accepts; revoked when the job ends. */
  import_key_id: string | null;
  import_key_revoked: boolean;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export type ImportOutcome = 'imported' | 'updated' | 'failed';

/** One payment method accounted for: unique per job and business key, so nothing is counted twice. */
export interface ImportItem extends StoredDocument {
  /** Its job's mode. */
  mode: Mode;
  job_id: string;
  business_key: string;
  outcome: ImportOutcome;
  reason: string | null;
  /** The token holds no security code (imported and updated only). */
  without_security_code?: boolean;
  recorded_at: string;
}

export const JOB_FAILURE_REASONS = {
  providerAuthenticationFailed: 'provider_authentication_failed',
  providerUnreachable: 'provider_unreachable',
  importCredentialUnavailable: 'import_credential_unavailable',
  importCredentialRejected: 'import_credential_rejected',
  credentialsUnreadable: 'credentials_unreadable',
  forwardingNotEnabled: 'forwarding_not_enabled',
} as const;

export function newImportJob(input: { id: string; scope: Scope; provider: string; sealedCredentials: string; now: Date }): Omit<ImportJob, 'version'> {
  return {
    id: input.id,
    merchant_id: input.scope.merchantId,
    mode: input.scope.mode,
    provider: input.provider,
    state: 'preparing',
    created_at: input.now.toISOString(),
    started_at: null,
    finished_at: null,
    counts: { total: 0, imported: 0, updated: 0, failed: 0, imported_without_security_code: 0 },
    failure_reasons: {},
    failure_reason: null,
    failure_detail: null,
    checkpoint: { position: null, enumerated: 0, listing_complete: false },
    sealed_credentials: input.sealedCredentials,
    import_key_id: null,
    import_key_revoked: false,
    lease_owner: null,
    lease_expires_at: null,
  };
}

export const isEnded = (job: Pick<ImportJob, 'state'>): boolean => job.state === 'finished' || job.state === 'failed';

export const accountedFor = (counts: ImportCounts): number => counts.imported + counts.updated + counts.failed;

/** Every payment method the platform listed has a token or a failure reason. */
export const isAccountedFor = (job: ImportJob): boolean => job.checkpoint.listing_complete && accountedFor(job.counts) >= job.counts.total;

export function withOutcome(job: ImportJob, outcome: ImportOutcome, reason: string | null, withoutSecurityCode = false): ImportJob {
  const counts = { ...job.counts, [outcome]: job.counts[outcome] + 1 };
  if (withoutSecurityCode && outcome !== 'failed') counts.imported_without_security_code = (job.counts.imported_without_security_code ?? 0) + 1;
  const failure_reasons = outcome === 'failed' && reason ? { ...job.failure_reasons, [reason]: (job.failure_reasons[reason] ?? 0) + 1 } : job.failure_reasons;
  return { ...job, counts, failure_reasons };
}

/** The job as it ends: state, end time, and the secrets erased (fields removed, not blanked). */
export function ended(job: ImportJob, state: 'finished' | 'failed', now: Date, reason: string | null = null, detail: string | null = null): ImportJob {
  const { sealed_credentials: _credentials, sealed_import_key: _key, ...rest } = job;
  return { ...rest, state, finished_at: now.toISOString(), failure_reason: reason, failure_detail: detail, lease_owner: null, lease_expires_at: null };
}

export function holdsLease(job: ImportJob, workerId: string, now: Date): boolean {
  return job.lease_owner === workerId && job.lease_expires_at !== null && Date.parse(job.lease_expires_at) > now.getTime();
}

export function leaseIsFree(job: ImportJob, workerId: string, now: Date): boolean {
  return job.lease_owner === null || job.lease_owner === workerId || job.lease_expires_at === null || Date.parse(job.lease_expires_at) <= now.getTime();
}

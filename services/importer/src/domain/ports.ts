import type { Page, PageRequest } from '@vaultline/store';
import type { ImportJob, ImportOutcome } from './import-job';

export type ImportEventKind = 'started' | 'completed' | 'failed';

/** A change to one job; `event` is published in the same commit. null = nothing to change. */
export type JobChange = { job: ImportJob; event?: ImportEventKind } | null;

export interface ImportJobRepository {
  create(job: Omit<ImportJob, 'version'>): Promise<ImportJob>;
  get(merchantId: string, id: string): Promise<ImportJob | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<ImportJob>>;
  /**
   * Reads the job, applies `change` and commits it, retrying on a concurrent modification
   * (the runner's checkpoints and the consumer's counts touch the same job). Returns the job as
   * stored afterwards, or null when it does not exist.
   */
  mutate(merchantId: string, id: string, change: (current: ImportJob) => JobChange): Promise<ImportJob | null>;
  /**
   * Records one payment method's outcome and counts it, atomically. Returns the updated job,
   * or null when this business key was already accounted for in this job (or the job is unknown).
   */
  recordOutcome(merchantId: string, jobId: string, businessKey: string, outcome: ImportOutcome, reason: string | null): Promise<ImportJob | null>;
  /** Background worker only: jobs of every merchant in the given states. */
  listAcrossMerchants(where: { states: ImportJob['state'][]; keyNotRevoked?: boolean }, page: PageRequest): Promise<Page<ImportJob>>;
}

/** Mints and revokes the job-scoped API key the platform presents to /cde-import. */
export interface ImportCredentialIssuer {
  mint(merchantId: string, jobId: string, expiresAt: Date): Promise<{ id: string; apiKey: string }>;
  revoke(merchantId: string, keyId: string): Promise<void>;
}

/** Encrypts secrets at rest, bound to a context (the job id and purpose). */
export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export interface ImporterLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

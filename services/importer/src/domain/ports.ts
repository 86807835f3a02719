import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { ImportItem, ImportJob } from './import-job/import-job';

export type { SecretSealer } from '@vaultline/crypto';

export type { TransactionRunner } from '@vaultline/store';

/** Import jobs and their accounted payment methods. Stores and finds; the rules are ImportJobWriter's. */
export interface ImportJobRepository {
  get(scope: Scope, id: string): Promise<ImportJob | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<ImportJob>>;
  /** Background worker only: jobs of every merchant and mode in the given states (each with its own merchant_id and mode). */
  listAcrossMerchants(where: { states: ImportJob['state'][]; keyNotRevoked?: boolean }, page: PageRequest): Promise<Page<ImportJob>>;
  /** Which of `businessKeys` already have an item in the job. */
  accountedKeys(scope: Scope, jobId: string, businessKeys: readonly string[]): Promise<Set<string>>;
  insert(uow: UnitOfWork, job: Omit<ImportJob, 'version'>): ImportJob;
  /** Compare-and-set on the job's version: a concurrent change fails the commit with ConcurrentModificationError. */
  update(uow: UnitOfWork, job: ImportJob): ImportJob;
  /** Unique per job and business key: a second one fails the commit with DuplicateKeyError. */
  insertItem(uow: UnitOfWork, item: Omit<ImportItem, 'version'>): ImportItem;
}

/**
 * Mints and revokes the job-scoped API key the platform presents to /cde-import. The key is of the
 * job's mode, so the tokens /cde-import creates with it belong to that mode.
 */
export interface ImportCredentialIssuer {
  mint(scope: Scope, jobId: string, expiresAt: Date): Promise<{ id: string; apiKey: string }>;
  revoke(scope: Scope, keyId: string): Promise<void>;
}

export interface ImporterLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

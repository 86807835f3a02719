import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { ProcessorNotificationRecord } from './processor-notification';

export interface ProcessorNotificationRepository {
  /** A second accepted record with the same account and dedupe key fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, record: Omit<ProcessorNotificationRecord, 'version'>): void;
  list(scope: Scope, accountId: string, limit: number): Promise<ProcessorNotificationRecord[]>;
  /** The accepted capture event (succeeded or failed) of an account naming this capture or payment reference. */
  findCaptureEvent(scope: Scope, accountId: string, reference: string): Promise<ProcessorNotificationRecord | null>;
  /** The accepted event of one of these kinds whose action reference (capture_reference) is this one (a refund's, a void's). */
  findActionEvent(scope: Scope, accountId: string, actionReference: string, kinds: readonly string[]): Promise<ProcessorNotificationRecord | null>;
}

import type { StoredDocument } from '@vaultline/store';

/** A KEK rotation: a system record (merchant_id is the system scope), one per rotation started by the operator. */
export interface KeyRotationRecord extends StoredDocument {
  to_version: number;
  state: 'running' | 'completed';
  /** Active tokens not yet wrapped by to_version when the rotation started. */
  total: number;
  rewrapped: number;
  /** Last token id handled in the current pass; the job resumes after it after a restart. */
  cursor: string | null;
  passes: number;
  started_at: string;
  completed_at: string | null;
}

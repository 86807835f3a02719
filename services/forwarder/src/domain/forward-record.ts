import type { Scope } from '@vaultline/core';

/** The audit of one forward: who, which token, where, how it went. Never card data or credentials. */
export interface ForwardRecord {
  id: string;
  scope: Scope;
  tokenId: string;
  destinationHost: string;
  destinationPath: string;
  /** The destination's status, or null when it was not reached. */
  status: number | null;
  outcome: 'delivered' | 'unreachable' | 'timeout' | 'rejected';
  /** Our error code when the forward failed. */
  errorCode: string | null;
  durationMs: number;
  addedMs: number;
  createdAt: string;
}

import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

export type DetokenizeOutcome = 'granted' | 'token_not_found' | 'token_deleted' | 'insufficient_scope';

/**
 * One access (or attempt) to card data (PCI DSS 10.2): who, which token, why, when, the outcome.
 * Never card data. Kept in the system scope so that the admin API can list every merchant's entries.
 */
export interface DetokenizeAuditRecord extends StoredDocument {
  token_id: string;
  /** The merchant the caller acted for (from its internal token). */
  token_merchant_id: string;
  /** The mode the caller acted in (absent on records written before modes). */
  token_mode?: Mode;
  caller: string;
  purpose: string;
  outcome: DetokenizeOutcome;
  security_code_status: 'available' | 'expired' | 'not_collected' | null;
  /** The caller's own request id: the forwarder mints one per forward (the forward record's id). */
  request_id: string;
  /** The X-Request-Id the merchant's client sent, as the caller passed it on; null when none (absent on older records). */
  client_request_id?: string | null;
  occurred_at: string;
}

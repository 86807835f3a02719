import type { Mode } from '@vaultline/core';
/**
 * A notification a processor sent about one of an account's payments, as received and verified
 * (`dedupe_key` unique per account, so a redelivery is recorded once). Items whose signature does not
 * verify are not stored (counted and logged instead); stores written by earlier versions may still hold
 * such items as `refused`.
 */
export interface ProcessorNotificationRecord {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  account_id: string;
  /** The processor's id (a registered plugin's). */
  processor: string;
  status: 'accepted' | 'refused';
  /** Accepted: the processor's identity of the event; refused: the record's own id (never deduplicated). */
  dedupe_key: string;
  /** The normalised event kind (accepted), or the processor's event name as given (refused). */
  kind: string;
  payment_reference: string | null;
  processor_reference: string | null;
  /** The processor's reference of the action the event settles: a capture's, a refund's or a void's. */
  capture_reference: string | null;
  failure_reason: string | null;
  /** Refused: why (`invalid_signature`). */
  refusal: string | null;
  received_at: string;
  version: number;
}

/**
 * A notification a processor sent about one of an account's payments, as received: accepted (its
 * signature verified; `dedupe_key` unique per account, so a redelivery is recorded once) or refused (the
 * signature did not verify; kept for the operator, nothing moves).
 */
export interface ProcessorNotificationRecord {
  id: string;
  merchant_id: string;
  account_id: string;
  processor: 'adyen' | 'checkout';
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

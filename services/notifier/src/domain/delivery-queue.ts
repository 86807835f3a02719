import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/**
 * The live part of the delivery work: one entry per message that still has an attempt ahead of it,
 * removed when the message succeeds or fails for good. The worker's scan reads this small set, across
 * merchants, instead of the whole delivery history.
 */
export interface QueueEntry extends StoredDocument {
  /** The message id. */
  id: string;
  /** The merchant the message belongs to (the entry's merchant_id too). */
  message_merchant_id: string;
  /** The message's mode (the entry's scope is the message's). */
  mode: Mode;
  endpoint_id: string;
  /** Epoch ms: when the next attempt is due, or, when claimed, when the claim lapses. */
  due_at: number;
  /**
   * A worker is attempting the message. The claim is a lease: once due_at has passed, the worker
   * is presumed dead and any worker may claim the entry again (at-least-once).
   */
  claimed: boolean;
}

import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/** An entry of the merchant event log (GET /events), like Stripe's events. */
export interface MerchantEvent extends StoredDocument {
  /** The mode of the resource the event is about (the envelope's livemode). */
  mode: Mode;
  type: string;
  /** When the event happened (the envelope's occurred_at). */
  created_at: string;
  /** Mapped explicitly from the event contract; never card data. */
  data: Record<string, unknown>;
}

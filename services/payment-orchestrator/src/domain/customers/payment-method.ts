import type { Mode } from '@vaultline/core';
import { AppError, ConflictError, NotFoundError, ValidationError } from '@vaultline/core';

/** What the earlier interface shows of a card: display data only. */
export interface StoredCard {
  masked_number: string;
  expiry_year: number;
  expiry_month: number;
  cardholder_name: string | null;
}

export type MandateType = 'recurring_payments' | 'unscheduled_payments';

export interface MandateTerms {
  /** The time the consumer submitted the session that consented (ISO 8601 UTC). */
  accepted_on: string;
  reference: string;
  type: MandateType;
}

/**
 * A stored payment method of the earlier interface: a card kept for consumer-present payments (COF), or
 * an NPR mandate for merchant-initiated ones. A mandate runs on the stored credentials of the newer
 * interface (credential_id: token, network transaction reference), created with its first payment.
 * Both exist only once a payment with the card was authorized.
 */
export interface PaymentMethod {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  version: number;
  type: 'card' | 'npr_mandate';
  customer_id: string | null;
  card: StoredCard;
  /** The vault token of the card; never shown to the merchant. */
  token_id: string;
  card_scheme: string | null;
  npr_mandate: MandateTerms | null;
  credential_id: string | null;
  /** The payment that created the method (a mandate's first payment). */
  first_payment_id: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

export class PaymentMethodNotFound extends NotFoundError {
  constructor() {
    super('payment_method');
  }
}

export class PaymentMethodRevoked extends AppError {
  constructor() {
    super('payment_method_revoked', 410, 'This payment method was revoked (DELETE /payment-methods/{id}); it cannot be used any more.');
  }
}

/** A mandate's first payment named on the newer interface's subsequent path: the mandate (and its revocation) decides, not the path. */
export class MandateFirstPayment extends ValidationError {
  constructor() {
    super(
      'payment_id',
      "This payment was created through POST /payments (earlier interface): charge its mandate with POST /payments and the mandate's payment_method_id.",
      'use_case_mismatch',
    );
  }
}

export class FirstPaymentRequired extends ConflictError {
  constructor() {
    super('first_payment_required', 'No successful first payment exists on this mandate; merchant-initiated payments need one (authorized or captured).');
  }
}

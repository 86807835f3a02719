/**
 * The words of the dispute API that the service and its OpenAPI document share: the evidence fields a
 * merchant sends (Stripe's dispute evidence, https://docs.stripe.com/api/disputes/evidence_object), the
 * file formats, and the fraud types of early fraud warnings (Stripe's EarlyFraudWarning.fraud_type).
 */

/** Stripe's text evidence fields (the dispute evidence object's string members that are not file ids). */
export const EVIDENCE_TEXT_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_tracking_number',
  'uncategorized_text',
] as const;

/** Stripe's file evidence fields (each holds one file). */
export const EVIDENCE_FILE_FIELDS = [
  'cancellation_policy',
  'customer_communication',
  'customer_signature',
  'duplicate_charge_documentation',
  'receipt',
  'refund_policy',
  'service_documentation',
  'shipping_documentation',
  'uncategorized_file',
] as const;

/** The file formats the processors take between them (each processor takes some of them). */
export const EVIDENCE_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/tiff'] as const;

/**
 * One file's size once decoded: the gateway takes request bodies up to 1 MB and base64 adds a third, so
 * one file of 700 KiB still fits a request. Every processor takes larger files (Checkout.com 4 MB).
 */
export const EVIDENCE_FILE_MAX_BYTES = 700 * 1024;
/** One text field; all text fields of a request together at most EVIDENCE_TEXT_TOTAL_MAX (Stripe's limit for a dispute's text evidence). */
export const EVIDENCE_TEXT_MAX = 20_000;
export const EVIDENCE_TEXT_TOTAL_MAX = 150_000;

/** The fraud types of early fraud warnings, in Stripe's words. */
export const FRAUD_TYPES = [
  'card_never_received',
  'fraudulent_card_application',
  'made_with_counterfeit_card',
  'made_with_lost_card',
  'made_with_stolen_card',
  'misc',
  'unauthorized_use_of_card',
] as const;

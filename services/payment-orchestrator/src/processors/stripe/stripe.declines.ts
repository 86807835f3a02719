import { declineOf, type Decline, type DeclineCategory } from '../../domain/declines/decline';
import { visaForbidsRetry } from '../../domain/declines/scheme-rules';

/**
 * Stripe's decline codes → our declines. The list is Stripe's "Decline codes" page
 * (docs.stripe.com/declines/codes): the `decline_code` of a card error (a 402, or a PaymentIntent's
 * `last_payment_error`). Beside it the error (APIErrors in stripe/openapi) carries `advice_code`
 * (try_again_later, do_not_try_again, confirm_card_data: docs.stripe.com/declines#retrying-issuer-declines),
 * `network_advice_code` (the network's two digits: Mastercard's MAC), `network_decline_code` (the
 * issuer's raw code: Visa's category 1 forbids a retry) and `message`. Every code has a case in
 * stripe.declines.test.ts.
 */
interface StripeDecline {
  category: DeclineCategory;
  /** Ours (the transaction's failure_reason); the ones the engine named before declines existed are kept. */
  code: string;
  /** The issuer revoked the payment authority or said never: no retry, whatever the advice says. */
  never_retry?: boolean;
}

export const STRIPE_DECLINE_CODES: Readonly<Record<string, StripeDecline>> = {
  authentication_required: { category: 'authentication_required', code: 'authentication_required' },
  approve_with_id: { category: 'do_not_honor', code: 'card_declined' },
  call_issuer: { category: 'do_not_honor', code: 'card_declined' },
  card_not_supported: { category: 'other', code: 'transaction_not_permitted' },
  card_velocity_exceeded: { category: 'limit_exceeded', code: 'limit_exceeded' },
  currency_not_supported: { category: 'other', code: 'currency_not_supported' },
  do_not_honor: { category: 'do_not_honor', code: 'card_declined' },
  do_not_try_again: { category: 'do_not_honor', code: 'card_declined', never_retry: true },
  duplicate_transaction: { category: 'other', code: 'duplicate_transaction' },
  expired_card: { category: 'expired_card', code: 'expired_card' },
  fraudulent: { category: 'suspected_fraud', code: 'suspected_fraud' },
  generic_decline: { category: 'do_not_honor', code: 'card_declined' },
  incorrect_number: { category: 'invalid_card', code: 'invalid_card_number' },
  incorrect_cvc: { category: 'invalid_card', code: 'invalid_security_code' },
  incorrect_pin: { category: 'invalid_card', code: 'invalid_pin' },
  incorrect_zip: { category: 'other', code: 'avs_declined' },
  insufficient_funds: { category: 'insufficient_funds', code: 'insufficient_funds' },
  invalid_account: { category: 'invalid_card', code: 'invalid_account' },
  invalid_amount: { category: 'other', code: 'invalid_amount' },
  invalid_cvc: { category: 'invalid_card', code: 'invalid_security_code' },
  invalid_expiry_month: { category: 'invalid_card', code: 'invalid_expiry' },
  invalid_expiry_year: { category: 'invalid_card', code: 'invalid_expiry' },
  invalid_number: { category: 'invalid_card', code: 'invalid_card_number' },
  invalid_pin: { category: 'invalid_card', code: 'invalid_pin' },
  issuer_not_available: { category: 'processor_unavailable', code: 'issuer_unavailable' },
  lost_card: { category: 'lost_or_stolen', code: 'card_blocked' },
  merchant_blacklist: { category: 'suspected_fraud', code: 'suspected_fraud' },
  new_account_information_available: { category: 'other', code: 'new_account_information_available' },
  no_action_taken: { category: 'do_not_honor', code: 'card_declined' },
  not_permitted: { category: 'other', code: 'transaction_not_permitted' },
  offline_pin_required: { category: 'other', code: 'pin_required' },
  online_or_offline_pin_required: { category: 'other', code: 'pin_required' },
  pickup_card: { category: 'lost_or_stolen', code: 'card_blocked' },
  pin_try_exceeded: { category: 'limit_exceeded', code: 'pin_tries_exceeded' },
  processing_error: { category: 'processor_unavailable', code: 'processing_error' },
  reenter_transaction: { category: 'processor_unavailable', code: 'reenter_transaction' },
  restricted_card: { category: 'other', code: 'card_restricted' },
  revocation_of_all_authorizations: { category: 'other', code: 'authorization_revoked', never_retry: true },
  revocation_of_authorization: { category: 'other', code: 'authorization_revoked', never_retry: true },
  security_violation: { category: 'suspected_fraud', code: 'suspected_fraud' },
  service_not_allowed: { category: 'other', code: 'transaction_not_permitted' },
  stolen_card: { category: 'lost_or_stolen', code: 'card_blocked' },
  stop_payment_order: { category: 'other', code: 'authorization_revoked', never_retry: true },
  testmode_decline: { category: 'invalid_card', code: 'testmode_decline' },
  transaction_not_allowed: { category: 'other', code: 'transaction_not_permitted' },
  try_again_later: { category: 'do_not_honor', code: 'card_declined' },
  withdrawal_count_limit_exceeded: { category: 'limit_exceeded', code: 'limit_exceeded' },
};

/**
 * Card errors Stripe names by `code` alone (no decline_code): its own checks of the card's data before the
 * issuer saw it, and the failed 3-D Secure challenge (no decline: the engine records none for it).
 */
export const STRIPE_ERROR_CODES: Readonly<Record<string, StripeDecline>> = {
  card_declined: { category: 'do_not_honor', code: 'card_declined' },
  expired_card: { category: 'expired_card', code: 'expired_card' },
  incorrect_cvc: { category: 'invalid_card', code: 'invalid_security_code' },
  incorrect_number: { category: 'invalid_card', code: 'invalid_card_number' },
  invalid_cvc: { category: 'invalid_card', code: 'invalid_security_code' },
  invalid_number: { category: 'invalid_card', code: 'invalid_card_number' },
  invalid_expiry_month: { category: 'invalid_card', code: 'invalid_expiry' },
  invalid_expiry_year: { category: 'invalid_card', code: 'invalid_expiry' },
  authentication_required: { category: 'authentication_required', code: 'authentication_required' },
  payment_intent_authentication_failure: { category: 'other', code: 'authentication_failed' },
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const member = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);

/** Stripe's card brand (visa, mastercard…) of the error's PaymentMethod → ours. */
const brandOf = (error: unknown): string | null => text(member(member(member(error, 'payment_method'), 'card'), 'brand'))?.toUpperCase() ?? null;

/** A card error (a 402's `error`, or a PaymentIntent's `last_payment_error`) as our decline; an unknown code is a plain decline. */
export function stripeDecline(error: unknown): Decline {
  const declineCode = text(member(error, 'decline_code'));
  const code = text(member(error, 'code'));
  const entry = (declineCode && STRIPE_DECLINE_CODES[declineCode]) ||
    (code && STRIPE_ERROR_CODES[code]) || { category: 'do_not_honor' as const, code: 'card_declined' };
  return declineOf(entry, {
    processor_code: declineCode ?? code,
    processor_message: text(member(error, 'message')),
    // Stripe's own advice when it gives one; the network's (Mastercard's MAC) otherwise.
    advice_code: text(member(error, 'advice_code')) ?? text(member(error, 'network_advice_code')),
    scheme_forbids_retry: entry.never_retry === true || visaForbidsRetry(brandOf(error), text(member(error, 'network_decline_code'))),
  });
}

/** The card's country of issue Stripe reports (the charge's payment_method_details.card.country, or the error's PaymentMethod's card.country). */
export function stripeIssuerCountry(card: unknown): string | null {
  const country = text(member(card, 'country'));
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null;
}

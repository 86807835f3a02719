import { fromStripePaymentIntentResponse } from './stripe.mapper';
import { STRIPE_DECLINE_CODES, STRIPE_ERROR_CODES, stripeDecline } from './stripe.declines';

/**
 * Stripe's card decline codes as its "Decline codes" page lists them, with the category and code each must
 * come out as: written out here, not read from the table, so a code dropped or moved fails.
 */
const LISTED: Array<[declineCode: string, category: string, ours: string, retryable: boolean]> = [
  ['authentication_required', 'authentication_required', 'authentication_required', true],
  ['approve_with_id', 'do_not_honor', 'card_declined', true],
  ['call_issuer', 'do_not_honor', 'card_declined', true],
  ['card_not_supported', 'other', 'transaction_not_permitted', true],
  ['card_velocity_exceeded', 'limit_exceeded', 'limit_exceeded', true],
  ['currency_not_supported', 'other', 'currency_not_supported', true],
  ['do_not_honor', 'do_not_honor', 'card_declined', true],
  ['do_not_try_again', 'do_not_honor', 'card_declined', false],
  ['duplicate_transaction', 'other', 'duplicate_transaction', true],
  ['expired_card', 'expired_card', 'expired_card', true],
  ['fraudulent', 'suspected_fraud', 'suspected_fraud', false],
  ['generic_decline', 'do_not_honor', 'card_declined', true],
  ['incorrect_number', 'invalid_card', 'invalid_card_number', false],
  ['incorrect_cvc', 'invalid_card', 'invalid_security_code', false],
  ['incorrect_pin', 'invalid_card', 'invalid_pin', false],
  ['incorrect_zip', 'other', 'avs_declined', true],
  ['insufficient_funds', 'insufficient_funds', 'insufficient_funds', true],
  ['invalid_account', 'invalid_card', 'invalid_account', false],
  ['invalid_amount', 'other', 'invalid_amount', true],
  ['invalid_cvc', 'invalid_card', 'invalid_security_code', false],
  ['invalid_expiry_month', 'invalid_card', 'invalid_expiry', false],
  ['invalid_expiry_year', 'invalid_card', 'invalid_expiry', false],
  ['invalid_number', 'invalid_card', 'invalid_card_number', false],
  ['invalid_pin', 'invalid_card', 'invalid_pin', false],
  ['issuer_not_available', 'processor_unavailable', 'issuer_unavailable', true],
  ['lost_card', 'lost_or_stolen', 'card_blocked', false],
  ['merchant_blacklist', 'suspected_fraud', 'suspected_fraud', false],
  ['new_account_information_available', 'other', 'new_account_information_available', true],
  ['no_action_taken', 'do_not_honor', 'card_declined', true],
  ['not_permitted', 'other', 'transaction_not_permitted', true],
  ['offline_pin_required', 'other', 'pin_required', true],
  ['online_or_offline_pin_required', 'other', 'pin_required', true],
  ['pickup_card', 'lost_or_stolen', 'card_blocked', false],
  ['pin_try_exceeded', 'limit_exceeded', 'pin_tries_exceeded', true],
  ['processing_error', 'processor_unavailable', 'processing_error', true],
  ['reenter_transaction', 'processor_unavailable', 'reenter_transaction', true],
  ['restricted_card', 'other', 'card_restricted', true],
  ['revocation_of_all_authorizations', 'other', 'authorization_revoked', false],
  ['revocation_of_authorization', 'other', 'authorization_revoked', false],
  ['security_violation', 'suspected_fraud', 'suspected_fraud', false],
  ['service_not_allowed', 'other', 'transaction_not_permitted', true],
  ['stolen_card', 'lost_or_stolen', 'card_blocked', false],
  ['stop_payment_order', 'other', 'authorization_revoked', false],
  ['testmode_decline', 'invalid_card', 'testmode_decline', false],
  ['transaction_not_allowed', 'other', 'transaction_not_permitted', true],
  ['try_again_later', 'do_not_honor', 'card_declined', true],
  ['withdrawal_count_limit_exceeded', 'limit_exceeded', 'limit_exceeded', true],
];

/** Card errors Stripe names by code alone (APIErrors.code, no decline_code). */
const ERROR_CODES: Array<[code: string, category: string, ours: string]> = [
  ['card_declined', 'do_not_honor', 'card_declined'],
  ['expired_card', 'expired_card', 'expired_card'],
  ['incorrect_cvc', 'invalid_card', 'invalid_security_code'],
  ['incorrect_number', 'invalid_card', 'invalid_card_number'],
  ['invalid_cvc', 'invalid_card', 'invalid_security_code'],
  ['invalid_number', 'invalid_card', 'invalid_card_number'],
  ['invalid_expiry_month', 'invalid_card', 'invalid_expiry'],
  ['invalid_expiry_year', 'invalid_card', 'invalid_expiry'],
  ['authentication_required', 'authentication_required', 'authentication_required'],
  ['payment_intent_authentication_failure', 'other', 'authentication_failed'],
];

const PI = { id: 'pi_3MtwBwLkdIwHu7ix28a3tqPa', object: 'payment_intent', status: 'requires_payment_method' };
const declined = (error: Record<string, unknown>) => ({
  status: 402,
  body: { error: { type: 'card_error', message: 'Your card was declined.', payment_intent: PI, ...error } },
});

describe("Stripe's decline codes", () => {
  it("when the table is compared with Stripe's list, then it holds every listed decline code and no other", () => {
    expect(Object.keys(STRIPE_DECLINE_CODES).sort()).toEqual(LISTED.map(([code]) => code).sort());
    expect(Object.keys(STRIPE_ERROR_CODES).sort()).toEqual(ERROR_CODES.map(([code]) => code).sort());
  });

  it.each(LISTED)(
    "when Stripe declines with decline_code %s (HTTP 402), then the decline is %s, code %s, retryable %s, with Stripe's code and message",
    (declineCode, category, ours, retryable) => {
      expect(fromStripePaymentIntentResponse(declined({ code: 'card_declined', decline_code: declineCode }))).toEqual({
        status: 'failed',
        failure_reason: ours,
        processor_reference: PI.id,
        decline: { category, code: ours, processor_code: declineCode, processor_message: 'Your card was declined.', advice_code: null, retryable },
      });
    },
  );

  it.each(ERROR_CODES)('when a card error has code %s and no decline_code, then the decline is %s, code %s', (code, category, ours) => {
    expect(stripeDecline({ type: 'card_error', code })).toMatchObject({ category, code: ours, processor_code: code });
  });

  it('when the PaymentIntent comes back requires_payment_method with a last_payment_error, then that error is the decline', () => {
    const outcome = fromStripePaymentIntentResponse({
      status: 200,
      body: { ...PI, last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', advice_code: 'try_again_later' } },
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      failure_reason: 'insufficient_funds',
      decline: { category: 'insufficient_funds', advice_code: 'try_again_later', retryable: true },
    });
  });

  it.each([
    [{ advice_code: 'do_not_try_again' }, 'do_not_try_again', false],
    [{ advice_code: 'confirm_card_data' }, 'confirm_card_data', true],
    [{ network_advice_code: '03' }, '03', false],
    [{ network_advice_code: '21' }, '21', false],
    [{ advice_code: 'try_again_later', network_advice_code: '24' }, 'try_again_later', true],
  ])('when a generic decline carries %j, then the advice is %s and the decline retryable is %s', (advice, code, retryable) => {
    expect(stripeDecline({ code: 'card_declined', decline_code: 'generic_decline', ...advice })).toMatchObject({ advice_code: code, retryable });
  });

  it.each([
    ['visa', '43', false],
    ['visa', '46', false],
    ['visa', '51', true],
    ['mastercard', '43', true],
  ] as const)(
    "when a %s card is declined with network_decline_code %s, then Visa's category 1 decides whether it is retryable (%s)",
    (brand, network, retryable) => {
      expect(
        stripeDecline({
          code: 'card_declined',
          decline_code: 'generic_decline',
          network_decline_code: network,
          payment_method: { card: { brand, country: 'US' } },
        }).retryable,
      ).toBe(retryable);
    },
  );

  it("when Stripe reports the card's country (the charge, or the error's PaymentMethod), then the outcome carries it", () => {
    expect(
      fromStripePaymentIntentResponse(
        declined({ code: 'card_declined', decline_code: 'generic_decline', payment_method: { card: { brand: 'visa', country: 'fr' } } }),
      ),
    ).toMatchObject({ issuer_country: 'FR' });
  });
});

import { ADYEN_REFUSALS, adyenDecline, adyenIssuerCountry, rawResponseCodeOf } from './adyen.declines';
import { fromAdyenPaymentResponse } from './adyen.mapper';

/**
 * Adyen's refusal reasons as its "Refusal reasons" page lists them (refusalReasonCode, refusalReason),
 * with the category and code each must come out as. Written out here, not read from the table, so a
 * code dropped or moved in the table fails.
 */
const LISTED: Array<[code: string, reason: string, category: string, ours: string, retryable: boolean]> = [
  ['2', 'Refused', 'do_not_honor', 'card_declined', true],
  ['3', 'Referral', 'do_not_honor', 'card_declined', true],
  ['4', 'Acquirer Error', 'processor_unavailable', 'processor_error', true],
  ['5', 'Blocked Card', 'lost_or_stolen', 'card_blocked', false],
  ['6', 'Expired Card', 'expired_card', 'expired_card', true],
  ['7', 'Invalid Amount', 'other', 'invalid_amount', true],
  ['8', 'Invalid Card Number', 'invalid_card', 'invalid_card_number', false],
  ['9', 'Issuer Unavailable', 'processor_unavailable', 'issuer_unavailable', true],
  ['10', 'Not supported', 'other', 'card_not_supported', true],
  ['11', '3D Not Authenticated', 'authentication_required', 'authentication_failed', true],
  ['12', 'Not enough balance', 'insufficient_funds', 'insufficient_funds', true],
  ['14', 'Acquirer Fraud', 'suspected_fraud', 'suspected_fraud', false],
  ['15', 'Cancelled', 'other', 'cancelled', true],
  ['16', 'Shopper Cancelled', 'other', 'cancelled', true],
  ['17', 'Invalid Pin', 'invalid_card', 'invalid_pin', false],
  ['18', 'Pin tries exceeded', 'limit_exceeded', 'pin_tries_exceeded', true],
  ['19', 'Pin validation not possible', 'other', 'pin_validation_not_possible', true],
  ['20', 'FRAUD', 'suspected_fraud', 'suspected_fraud', false],
  ['21', 'Not Submitted', 'processor_unavailable', 'processor_not_submitted', true],
  ['22', 'FRAUD-CANCELLED', 'suspected_fraud', 'suspected_fraud', false],
  ['23', 'Transaction Not Permitted', 'other', 'transaction_not_permitted', true],
  ['24', 'CVC Declined', 'invalid_card', 'invalid_security_code', false],
  ['25', 'Restricted Card', 'other', 'card_restricted', true],
  ['26', 'Revocation Of Auth', 'other', 'authorization_revoked', false],
  ['27', 'Declined Non Generic', 'do_not_honor', 'card_declined', true],
  ['28', 'Withdrawal amount exceeded', 'limit_exceeded', 'limit_exceeded', true],
  ['29', 'Withdrawal count exceeded', 'limit_exceeded', 'limit_exceeded', true],
  ['31', 'Issuer Suspected Fraud', 'suspected_fraud', 'suspected_fraud', false],
  ['32', 'AVS Declined', 'other', 'avs_declined', true],
  ['33', 'Card requires online pin', 'other', 'pin_required', true],
  ['34', 'No checking account available on Card', 'other', 'account_not_available', true],
  ['35', 'No savings account available on Card', 'other', 'account_not_available', true],
  ['36', 'Mobile pin required', 'other', 'pin_required', true],
  ['37', 'Contactless fallback', 'other', 'contactless_fallback', true],
  ['38', 'Authentication required', 'authentication_required', 'authentication_required', true],
  ['39', 'RReq not received from DS', 'processor_unavailable', 'authentication_unavailable', true],
  ['40', 'Current AID is in Penalty Box', 'other', 'card_penalty_box', true],
  ['41', 'CVM Required Restart Payment', 'other', 'pin_required', true],
  ['42', '3DS Authentication Error', 'authentication_required', 'authentication_error', true],
  ['43', 'Online PIN required', 'other', 'pin_required', true],
  ['44', 'Try another interface', 'other', 'try_another_interface', true],
  ['45', 'Chip downgrade mode', 'other', 'chip_downgrade', true],
  ['46', 'Transaction blocked by Adyen to prevent excessive retry fees', 'other', 'retry_blocked', false],
];

const refused = (code: string, reason: string, additionalData: Record<string, string> = {}) => ({
  status: 200,
  body: { pspReference: 'PSP1', resultCode: 'Refused', refusalReason: reason, refusalReasonCode: code, additionalData },
});

describe("Adyen's refusal reasons", () => {
  it("when the table is compared with Adyen's list, then it holds every listed code and no other", () => {
    expect(Object.keys(ADYEN_REFUSALS).sort()).toEqual(LISTED.map(([code]) => code).sort());
  });

  it.each(LISTED)(
    "when Adyen refuses with refusalReasonCode %s (%s), then the decline is %s, code %s, retryable %s, with Adyen's code and words",
    (code, reason, category, ours, retryable) => {
      const outcome = fromAdyenPaymentResponse(refused(code, reason));
      expect(outcome).toEqual({
        status: 'failed',
        failure_reason: ours,
        processor_reference: 'PSP1',
        decline: { category, code: ours, processor_code: code, processor_message: reason, advice_code: null, retryable },
      });
    },
  );

  it.each(LISTED)('when an answer carries refusalReasonCode %s without a reason Adyen lists, then the code alone decides', (code, _reason, category) => {
    expect(adyenDecline({ refusalReasonCode: code, refusalReason: '' })).toMatchObject({ category, processor_code: code });
  });

  it('when a refusal is unknown by code and reason, then it is a plain decline (do_not_honor), never a retryable error', () => {
    expect(adyenDecline({ refusalReasonCode: '99', refusalReason: 'Something new' })).toEqual({
      category: 'do_not_honor',
      code: 'card_declined',
      processor_code: '99',
      processor_message: 'Something new',
      advice_code: null,
      retryable: true,
    });
  });

  it.each([
    ['03: Do not try again', '03', false],
    ['21: Payment Cancellation', '21', false],
    ['24: Retry after 1 hour', '24', true],
    ['01: New account information available', '01', true],
  ] as const)(
    'when a Mastercard refusal carries additionalData.merchantAdviceCode %j, then the advice is %s and the decline retryable is %s',
    (advice, code, retryable) => {
      expect(adyenDecline(refused('2', 'Refused', { merchantAdviceCode: advice, paymentMethod: 'mc' }).body)).toMatchObject({ advice_code: code, retryable });
    },
  );

  it.each([
    ['41 : Lost card', false],
    ['43: Stolen card', false],
    ['R1: Revocation of authorization order', false],
    ['05 : Do not honor', true],
    ['51 : Insufficient funds', true],
  ] as const)("when a Visa refusal's refusalReasonRaw is %j, then Visa's category 1 decides whether it may be retried (%s)", (raw, retryable) => {
    expect(adyenDecline(refused('2', 'Refused', { refusalReasonRaw: raw, paymentMethod: 'visa' }).body).retryable).toBe(retryable);
  });

  it("when the same raw code comes from a Mastercard card, then Visa's categories do not apply", () => {
    expect(adyenDecline(refused('2', 'Refused', { refusalReasonRaw: '04 : Pick up card', paymentMethod: 'mc' }).body).retryable).toBe(true);
  });

  it.each([
    ['05 : Do not honor', '05'],
    ['R1: Revocation', 'R1'],
    ['4: Pick up', '04'],
    ['DECLINED Not enough balance', null],
  ] as const)("when refusalReasonRaw is %j, then the scheme's code is %s", (raw, code) => {
    expect(rawResponseCodeOf(raw)).toBe(code);
  });

  it("when Adyen reports additionalData.issuerCountry, then the outcome carries the country of issue (routing's segment)", () => {
    expect(adyenIssuerCountry(refused('2', 'Refused', { issuerCountry: 'nl' }).body)).toBe('NL');
    expect(
      fromAdyenPaymentResponse({ status: 200, body: { pspReference: 'P1', resultCode: 'Authorised', additionalData: { issuerCountry: 'DE' } } }),
    ).toMatchObject({ status: 'succeeded', issuer_country: 'DE' });
  });
});

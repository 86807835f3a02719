import { CHECKOUT_RESPONSE_CODES, checkoutDecline, checkoutIssuerCountry, networkCodeOf } from './checkout.declines';
import { fromCheckoutPaymentResponse } from './checkout.mapper';

/**
 * Checkout.com's response codes as its "API response codes" page lists them (20xxx soft, 30xxx hard, 40xxx
 * risk), with the category and code each must come out as, and whether it may be retried (hard declines,
 * 30xxx and revocations never): written out here, not read from the table, so a code dropped or moved fails.
 */
const LISTED: Array<[code: string, category: string, ours: string, retryable: boolean]> = [
  ['20001', 'do_not_honor', 'card_declined', true],
  ['20002', 'do_not_honor', 'card_declined', true],
  ['20003', 'processor_unavailable', 'processor_configuration', true],
  ['20005', 'do_not_honor', 'card_declined', true],
  ['20006', 'processor_unavailable', 'processor_request_rejected', true],
  ['20009', 'processor_unavailable', 'processor_pending', true],
  ['20010', 'other', 'partial_approval', true],
  ['20012', 'other', 'transaction_not_permitted', true],
  ['20013', 'other', 'invalid_amount', true],
  ['20014', 'invalid_card', 'invalid_card_number', false],
  ['20017', 'other', 'authorization_revoked', false],
  ['20018', 'other', 'customer_dispute', true],
  ['20019', 'processor_unavailable', 'reenter_transaction', true],
  ['20020', 'processor_unavailable', 'processor_invalid_response', true],
  ['20021', 'processor_unavailable', 'processor_error', true],
  ['20022', 'processor_unavailable', 'processor_error', true],
  ['20023', 'other', 'transaction_not_permitted', true],
  ['20024', 'processor_unavailable', 'processor_error', true],
  ['20025', 'processor_unavailable', 'processor_error', true],
  ['20026', 'processor_unavailable', 'processor_error', true],
  ['20027', 'processor_unavailable', 'processor_error', true],
  ['20028', 'processor_unavailable', 'processor_error', true],
  ['20029', 'processor_unavailable', 'processor_error', true],
  ['20030', 'processor_unavailable', 'processor_request_rejected', true],
  ['20031', 'other', 'card_not_supported', true],
  ['20032', 'other', 'partial_approval', true],
  ['20033', 'processor_unavailable', 'processor_request_rejected', true],
  ['20038', 'limit_exceeded', 'pin_tries_exceeded', true],
  ['20039', 'other', 'account_not_available', true],
  ['20040', 'other', 'transaction_not_permitted', true],
  ['20042', 'other', 'account_not_available', true],
  ['20044', 'other', 'account_not_available', true],
  ['20046', 'do_not_honor', 'card_declined', true],
  ['20051', 'insufficient_funds', 'insufficient_funds', true],
  ['20052', 'other', 'account_not_available', true],
  ['20053', 'other', 'account_not_available', true],
  ['20054', 'expired_card', 'expired_card', true],
  ['20055', 'invalid_card', 'invalid_pin', false],
  ['20056', 'invalid_card', 'invalid_card_number', false],
  ['20057', 'other', 'transaction_not_permitted', true],
  ['20058', 'other', 'transaction_not_permitted', true],
  ['20059', 'suspected_fraud', 'suspected_fraud', false],
  ['20060', 'other', 'contact_acquirer', true],
  ['20061', 'limit_exceeded', 'limit_exceeded', true],
  ['20062', 'other', 'card_restricted', true],
  ['20063', 'suspected_fraud', 'suspected_fraud', false],
  ['20064', 'other', 'transaction_not_permitted', true],
  ['20065', 'limit_exceeded', 'limit_exceeded', true],
  ['20066', 'suspected_fraud', 'suspected_fraud', false],
  ['20067', 'lost_or_stolen', 'card_blocked', false],
  ['20068', 'processor_unavailable', 'processor_timeout', true],
  ['20075', 'limit_exceeded', 'pin_tries_exceeded', true],
  ['20078', 'other', 'card_not_activated', true],
  ['20082', 'invalid_card', 'invalid_security_code', false],
  ['20083', 'other', 'account_not_available', true],
  ['20084', 'processor_unavailable', 'processor_error', true],
  ['20085', 'processor_unavailable', 'processor_error', true],
  ['20086', 'processor_unavailable', 'processor_error', true],
  ['20087', 'invalid_card', 'invalid_security_code', false],
  ['20088', 'processor_unavailable', 'processor_error', true],
  ['20089', 'processor_unavailable', 'processor_error', true],
  ['20090', 'processor_unavailable', 'processor_error', true],
  ['20091', 'processor_unavailable', 'issuer_unavailable', true],
  ['20092', 'processor_unavailable', 'processor_error', true],
  ['20093', 'other', 'transaction_not_permitted', true],
  ['20094', 'other', 'duplicate_transaction', true],
  ['20095', 'processor_unavailable', 'processor_error', true],
  ['20096', 'processor_unavailable', 'processor_error', true],
  ['20097', 'processor_unavailable', 'processor_error', true],
  ['20098', 'processor_unavailable', 'processor_error', true],
  ['20099', 'do_not_honor', 'card_declined', true],
  ['20100', 'invalid_card', 'invalid_expiry', false],
  ['20101', 'processor_unavailable', 'processor_request_rejected', true],
  ['20102', 'processor_unavailable', 'processor_configuration', true],
  ['20103', 'other', 'card_not_supported', true],
  ['20104', 'other', 'transaction_not_permitted', true],
  ['20105', 'other', 'transaction_not_permitted', true],
  ['20106', 'other', 'currency_not_supported', true],
  ['20107', 'other', 'billing_address_missing', true],
  ['20108', 'other', 'new_account_information_available', true],
  ['20109', 'processor_unavailable', 'processor_request_rejected', true],
  ['20110', 'processor_unavailable', 'processor_request_rejected', true],
  ['20111', 'processor_unavailable', 'processor_request_rejected', true],
  ['20112', 'processor_unavailable', 'processor_configuration', true],
  ['20113', 'processor_unavailable', 'processor_request_rejected', true],
  ['20114', 'processor_unavailable', 'processor_request_rejected', true],
  ['20115', 'processor_unavailable', 'processor_request_rejected', true],
  ['20116', 'processor_unavailable', 'processor_request_rejected', true],
  ['20117', 'processor_unavailable', 'processor_request_rejected', true],
  ['20118', 'processor_unavailable', 'processor_pending', true],
  ['20119', 'processor_unavailable', 'processor_request_rejected', true],
  ['20120', 'processor_unavailable', 'processor_request_rejected', true],
  ['20121', 'processor_unavailable', 'processor_configuration', true],
  ['20122', 'other', 'transaction_not_permitted', true],
  ['20123', 'other', 'billing_address_missing', true],
  ['20124', 'other', 'security_code_required', true],
  ['20150', 'other', 'authentication_not_available', true],
  ['20151', 'other', 'authentication_failed', true],
  ['20152', 'other', 'authentication_abandoned', true],
  ['20153', 'processor_unavailable', 'authentication_unavailable', true],
  ['20154', 'authentication_required', 'authentication_required', true],
  ['20155', 'authentication_required', 'authentication_error', true],
  ['20156', 'processor_unavailable', 'processor_configuration', true],
  ['20157', 'processor_unavailable', 'processor_configuration', true],
  ['20158', 'other', 'refund_expired', true],
  ['20179', 'do_not_honor', 'card_declined', true],
  ['20182', 'do_not_honor', 'card_declined', true],
  ['20183', 'suspected_fraud', 'suspected_fraud', false],
  ['20193', 'other', 'invalid_country', true],
  ['2005C', 'do_not_honor', 'card_declined', true],
  ['2006P', 'other', 'cardholder_verification_failed', true],
  ['200N0', 'processor_unavailable', 'processor_error', true],
  ['200N7', 'invalid_card', 'invalid_security_code', false],
  ['200O5', 'other', 'pin_required', true],
  ['200P1', 'limit_exceeded', 'limit_exceeded', true],
  ['200P9', 'limit_exceeded', 'limit_exceeded', true],
  ['200R1', 'other', 'authorization_revoked', false],
  ['200R3', 'other', 'authorization_revoked', false],
  ['200S4', 'processor_unavailable', 'processor_error', true],
  ['200T2', 'other', 'invalid_transaction_date', true],
  ['200T3', 'other', 'card_not_supported', true],
  ['200T5', 'processor_unavailable', 'processor_error', true],
  ['30004', 'lost_or_stolen', 'card_blocked', false],
  ['30007', 'lost_or_stolen', 'card_blocked', false],
  ['30015', 'invalid_card', 'invalid_card_number', false],
  ['30016', 'other', 'transaction_not_permitted', false],
  ['30017', 'other', 'transaction_not_permitted', false],
  ['30018', 'other', 'transaction_not_permitted', false],
  ['30019', 'other', 'transaction_not_permitted', false],
  ['30020', 'other', 'invalid_amount', false],
  ['30021', 'limit_exceeded', 'limit_exceeded', false],
  ['30022', 'limit_exceeded', 'limit_exceeded', false],
  ['30033', 'expired_card', 'expired_card', false],
  ['30034', 'suspected_fraud', 'suspected_fraud', false],
  ['30035', 'lost_or_stolen', 'card_blocked', false],
  ['30036', 'lost_or_stolen', 'card_blocked', false],
  ['30037', 'suspected_fraud', 'suspected_fraud', false],
  ['30038', 'lost_or_stolen', 'card_blocked', false],
  ['30041', 'lost_or_stolen', 'card_blocked', false],
  ['30043', 'lost_or_stolen', 'card_blocked', false],
  ['30044', 'other', 'transaction_not_permitted', false],
  ['30045', 'other', 'transaction_not_permitted', false],
  ['30046', 'invalid_card', 'account_closed', false],
  ['40101', 'suspected_fraud', 'risk_blocked', false],
  ['40201', 'suspected_fraud', 'risk_blocked', false],
  ['40202', 'suspected_fraud', 'risk_blocked', false],
  ['40203', 'suspected_fraud', 'risk_blocked', false],
  ['40204', 'suspected_fraud', 'risk_blocked', false],
  ['40205', 'suspected_fraud', 'risk_blocked', false],
  ['41101', 'suspected_fraud', 'risk_blocked', false],
  ['42101', 'suspected_fraud', 'risk_blocked', false],
];

const declined = (response_code: string, extra: Record<string, unknown> = {}) => ({
  status: 201,
  body: { id: 'pay_3', approved: false, status: 'Declined', response_code, response_summary: 'As Checkout.com words it', ...extra },
});

describe("Checkout.com's response codes", () => {
  it("when the table is compared with Checkout.com's list, then it holds every listed code and no other", () => {
    expect(Object.keys(CHECKOUT_RESPONSE_CODES).sort()).toEqual(LISTED.map(([code]) => code).sort());
  });

  it.each(LISTED)(
    'when Checkout.com declines with %s, then the decline is %s, code %s, retryable %s, with its code and summary',
    (code, category, ours, retryable) => {
      expect(fromCheckoutPaymentResponse(declined(code))).toEqual({
        status: 'failed',
        failure_reason: ours,
        processor_reference: 'pay_3',
        decline: { category, code: ours, processor_code: code, processor_message: 'As Checkout.com words it', advice_code: null, retryable },
      });
    },
  );

  it.each([
    ['20999', 'do_not_honor', true],
    ['30999', 'do_not_honor', false],
    ['49999', 'suspected_fraud', false],
  ] as const)('when a code is not listed (%s), then its range decides: %s, retryable %s', (code, category, retryable) => {
    expect(checkoutDecline({ response_code: code })).toMatchObject({ category, retryable, processor_message: null });
  });

  it.each([
    [{ recommendation_code: '03' }, '03', false],
    [{ recommendation_code: '02' }, '02', true],
    [{ recommendation_code: '01' }, '01', true],
    [{ partner_merchant_advice_code: '21', recommendation_code: '02' }, '21', false],
    [{ partner_merchant_advice_code: '24' }, '24', true],
  ])("when the payment's processing carries %j, then the advice is %s and the decline retryable is %s", (processing, advice, retryable) => {
    expect(checkoutDecline({ response_code: '20005', processing })).toMatchObject({ advice_code: advice, retryable });
  });

  it.each([
    ['Visa', '20057', false],
    ['Visa', '20051', true],
    ['Visa', '20012', false],
    ['Mastercard', '20057', true],
  ] as const)("when a %s card is declined with %s, then Visa's category 1 decides whether it is retried (%s)", (scheme, code, retryable) => {
    expect(checkoutDecline({ response_code: code, source: { scheme } }).retryable).toBe(retryable);
  });

  it("when the scheme's raw code (partner_response_code) is a Visa category 1 code, then it decides over Checkout.com's own code", () => {
    expect(checkoutDecline({ response_code: '20005', source: { scheme: 'Visa' }, processing: { partner_response_code: '46' } }).retryable).toBe(false);
  });

  it.each([
    ['20051', '51'],
    ['200R1', 'R1'],
    ['30041', '41'],
    ['20154', null],
    ['40101', null],
  ] as const)("when the code is %s, then the scheme's code inside it is %s", (code, network) => {
    expect(networkCodeOf(code)).toBe(network);
  });

  it('when Checkout.com reports source.issuer_country, then the outcome carries the country of issue', () => {
    expect(checkoutIssuerCountry({ source: { issuer_country: 'gb' } })).toBe('GB');
    expect(fromCheckoutPaymentResponse(declined('20005', { source: { issuer_country: 'GB' } }))).toMatchObject({ issuer_country: 'GB' });
  });
});

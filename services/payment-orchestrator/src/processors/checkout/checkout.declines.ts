import { declineOf, type Decline, type DeclineCategory } from '../../domain/declines/decline';
import { merchantAdviceCodeOf, visaForbidsRetry } from '../../domain/declines/scheme-rules';

/**
 * Checkout.com's response codes → our declines. The list is Checkout.com's "API response codes" page
 * (checkout.com/docs/resources/codes/response-codes): 20xxx soft declines ("subsequent attempts may
 * succeed"), 30xxx hard declines ("the issuer or cardholder must rectify the issue first": never retried
 * here), 40xxx risk responses (its fraud rules). Beside `response_code` and `response_summary`, the
 * payment's `processing` carries `recommendation_code` (01 update the card, 02 try later, 03 do not try
 * again: its "Recommendation codes" page), `partner_merchant_advice_code` (Mastercard's MAC) and
 * `partner_response_code` (the scheme's raw code); `source.scheme` and `source.issuer_country` name the
 * card. A Visa card answered with a category 1 code ("Visa response code categories": 04, 07, 12, 14, 15,
 * 41, 43, 46, 57, R0, R1, R3) is never retried. Every code has a case in checkout.declines.test.ts.
 */
type Entry = readonly [summary: string, category: DeclineCategory, code: string];

const SOFT: Readonly<Record<string, Entry>> = {
  '20001': ['Refer to card issuer', 'do_not_honor', 'card_declined'],
  '20002': ['Refer to card issuer - Special conditions', 'do_not_honor', 'card_declined'],
  '20003': ['Invalid merchant or service provider', 'processor_unavailable', 'processor_configuration'],
  '20005': ['Declined - Do not honour', 'do_not_honor', 'card_declined'],
  '20006': ['Error / Invalid request parameters', 'processor_unavailable', 'processor_request_rejected'],
  '20009': ['Request in progress', 'processor_unavailable', 'processor_pending'],
  '20010': ['Partial value approved', 'other', 'partial_approval'],
  '20012': ['Invalid transaction', 'other', 'transaction_not_permitted'],
  '20013': ['Invalid value/amount', 'other', 'invalid_amount'],
  '20014': ['Invalid account number (no such number)', 'invalid_card', 'invalid_card_number'],
  '20017': ['Customer cancellation', 'other', 'authorization_revoked'],
  '20018': ['Customer dispute', 'other', 'customer_dispute'],
  '20019': ['Re-enter transaction', 'processor_unavailable', 'reenter_transaction'],
  '20020': ['Invalid response', 'processor_unavailable', 'processor_invalid_response'],
  '20021': ['No action taken (unable to back out prior transaction)', 'processor_unavailable', 'processor_error'],
  '20022': ['Suspected malfunction', 'processor_unavailable', 'processor_error'],
  '20023': ['Unacceptable transaction fee', 'other', 'transaction_not_permitted'],
  '20024': ['File update not supported by the receiver', 'processor_unavailable', 'processor_error'],
  '20025': ['Unable to locate record on file', 'processor_unavailable', 'processor_error'],
  '20026': ['Duplicate file update record', 'processor_unavailable', 'processor_error'],
  '20027': ['File update field edit error', 'processor_unavailable', 'processor_error'],
  '20028': ['File is temporarily unavailable', 'processor_unavailable', 'processor_error'],
  '20029': ['File update not successful', 'processor_unavailable', 'processor_error'],
  '20030': ['Format error', 'processor_unavailable', 'processor_request_rejected'],
  '20031': ['Bank not supported by Switch', 'other', 'card_not_supported'],
  '20032': ['Completed partially', 'other', 'partial_approval'],
  '20033': ['Previous scheme transaction ID invalid', 'processor_unavailable', 'processor_request_rejected'],
  '20038': ['Allowable PIN tries exceeded', 'limit_exceeded', 'pin_tries_exceeded'],
  '20039': ['No credit account', 'other', 'account_not_available'],
  '20040': ['Requested function not supported', 'other', 'transaction_not_permitted'],
  '20042': ['No universal value/amount', 'other', 'account_not_available'],
  '20044': ['No investment account', 'other', 'account_not_available'],
  '20046': ['Bank decline', 'do_not_honor', 'card_declined'],
  '20051': ['Insufficient funds', 'insufficient_funds', 'insufficient_funds'],
  '20052': ['No current (checking) account', 'other', 'account_not_available'],
  '20053': ['No savings account', 'other', 'account_not_available'],
  '20054': ['Expired card', 'expired_card', 'expired_card'],
  '20055': ['Incorrect PIN / PIN validation not possible', 'invalid_card', 'invalid_pin'],
  '20056': ['No card record', 'invalid_card', 'invalid_card_number'],
  '20057': ['Transaction not permitted to cardholder', 'other', 'transaction_not_permitted'],
  '20058': ['Transaction not permitted to terminal', 'other', 'transaction_not_permitted'],
  '20059': ['Suspected fraud', 'suspected_fraud', 'suspected_fraud'],
  '20060': ['Card acceptor contact acquirer', 'other', 'contact_acquirer'],
  '20061': ['Activity amount limit exceeded', 'limit_exceeded', 'limit_exceeded'],
  '20062': ['Restricted card', 'other', 'card_restricted'],
  '20063': ['Security violation', 'suspected_fraud', 'suspected_fraud'],
  '20064': ['Transaction does not fulfil AML requirement', 'other', 'transaction_not_permitted'],
  '20065': ['Exceeds Withdrawal Frequency Limit', 'limit_exceeded', 'limit_exceeded'],
  '20066': ['Card acceptor call acquirer security', 'suspected_fraud', 'suspected_fraud'],
  '20067': ['Hard capture - Pick up card at ATM', 'lost_or_stolen', 'card_blocked'],
  '20068': ['Response received too late / Timeout', 'processor_unavailable', 'processor_timeout'],
  '20075': ['Allowable PIN-entry tries exceeded', 'limit_exceeded', 'pin_tries_exceeded'],
  '20078': ['Blocked, first used', 'other', 'card_not_activated'],
  '20082': ['No security model / negative CAM, dCVV, iCVV or CVV results', 'invalid_card', 'invalid_security_code'],
  '20083': ['No accounts', 'other', 'account_not_available'],
  '20084': ['No PBF', 'processor_unavailable', 'processor_error'],
  '20085': ['PBF update error', 'processor_unavailable', 'processor_error'],
  '20086': ['ATM malfunction / Invalid authorization type', 'processor_unavailable', 'processor_error'],
  '20087': ['Bad track data (invalid CVV and/or expiry date)', 'invalid_card', 'invalid_security_code'],
  '20088': ['Unable to dispense/process', 'processor_unavailable', 'processor_error'],
  '20089': ['Administration error', 'processor_unavailable', 'processor_error'],
  '20090': ['Cut-off in progress', 'processor_unavailable', 'processor_error'],
  '20091': ['Issuer unavailable or switch is inoperative', 'processor_unavailable', 'issuer_unavailable'],
  '20092': ['Destination cannot be found for routing', 'processor_unavailable', 'processor_error'],
  '20093': ['Transaction cannot be completed; violation of law', 'other', 'transaction_not_permitted'],
  '20094': ['Duplicate transmission / invoice', 'other', 'duplicate_transaction'],
  '20095': ['Reconcile error', 'processor_unavailable', 'processor_error'],
  '20096': ['System malfunction', 'processor_unavailable', 'processor_error'],
  '20097': ['Reconciliation totals reset', 'processor_unavailable', 'processor_error'],
  '20098': ['MAC error', 'processor_unavailable', 'processor_error'],
  '20099': ['Other / Unidentified responses', 'do_not_honor', 'card_declined'],
  '20100': ['Invalid expiry date format', 'invalid_card', 'invalid_expiry'],
  '20101': ['No Account / No Customer (token incorrect or invalid)', 'processor_unavailable', 'processor_request_rejected'],
  '20102': ['Invalid merchant / wallet ID', 'processor_unavailable', 'processor_configuration'],
  '20103': ['Card type / payment method not supported', 'other', 'card_not_supported'],
  '20104': ['Gateway reject - Invalid transaction', 'other', 'transaction_not_permitted'],
  '20105': ['Gateway reject - Violation', 'other', 'transaction_not_permitted'],
  '20106': ['Unsupported currency', 'other', 'currency_not_supported'],
  '20107': ['Billing address is missing', 'other', 'billing_address_missing'],
  '20108': ['Declined - Updated cardholder available', 'other', 'new_account_information_available'],
  '20109': ['Transaction already reversed (voided) / capture larger than authorized', 'processor_unavailable', 'processor_request_rejected'],
  '20110': ['Authorization completed', 'processor_unavailable', 'processor_request_rejected'],
  '20111': ['Transaction already reversed', 'processor_unavailable', 'processor_request_rejected'],
  '20112': ['Merchant not Mastercard SecureCode enabled', 'processor_unavailable', 'processor_configuration'],
  '20113': ['Invalid property', 'processor_unavailable', 'processor_request_rejected'],
  '20114': ['Token is incorrect', 'processor_unavailable', 'processor_request_rejected'],
  '20115': ['Missing / Invalid lifetime', 'processor_unavailable', 'processor_request_rejected'],
  '20116': ['Invalid encoding', 'processor_unavailable', 'processor_request_rejected'],
  '20117': ['Invalid API version', 'processor_unavailable', 'processor_request_rejected'],
  '20118': ['Transaction pending', 'processor_unavailable', 'processor_pending'],
  '20119': ['Invalid batch data and/or batch data is missing', 'processor_unavailable', 'processor_request_rejected'],
  '20120': ['Invalid customer/user', 'processor_unavailable', 'processor_request_rejected'],
  '20121': ['Transaction limit for merchant/terminal exceeded', 'processor_unavailable', 'processor_configuration'],
  '20122': ['Mastercard installments not supported', 'other', 'transaction_not_permitted'],
  '20123': ['Missing basic data: zip, addr, member', 'other', 'billing_address_missing'],
  '20124': ['Missing CVV value, required for ecommerce transaction', 'other', 'security_code_required'],
  '20150': ['Card not 3D Secure (3DS) enabled', 'other', 'authentication_not_available'],
  // The consumer's challenge failed: no decline to the engine (it records none), as before declines existed.
  '20151': ['Cardholder failed 3DS authentication', 'other', 'authentication_failed'],
  '20152': ['Initial 3DS transaction not completed within 15 minutes', 'other', 'authentication_abandoned'],
  '20153': ['3DS system malfunction', 'processor_unavailable', 'authentication_unavailable'],
  // The issuer's SCA soft decline of a payment sent without 3-D Secure.
  '20154': ['3DS authentication required', 'authentication_required', 'authentication_required'],
  '20155': ['3DS authentication service provided invalid authentication result', 'authentication_required', 'authentication_error'],
  '20156': ['Requested function not supported by the acquirer', 'processor_unavailable', 'processor_configuration'],
  '20157': ['Invalid merchant configurations - Contact Support', 'processor_unavailable', 'processor_configuration'],
  '20158': ['Refund validity period has expired', 'other', 'refund_expired'],
  '20179': ['Lifecycle (Mastercard use only)', 'do_not_honor', 'card_declined'],
  '20182': ['Policy (Mastercard use only)', 'do_not_honor', 'card_declined'],
  '20183': ['Security (Mastercard use only)', 'suspected_fraud', 'suspected_fraud'],
  '20193': ['Invalid country code', 'other', 'invalid_country'],
  '2005C': ['Transaction not supported / blocked by issuer', 'do_not_honor', 'card_declined'],
  '2006P': ['Cardholder ID verification failed', 'other', 'cardholder_verification_failed'],
  '200N0': ['Force STIP', 'processor_unavailable', 'processor_error'],
  '200N7': ['Decline for CVV2 failure', 'invalid_card', 'invalid_security_code'],
  '200O5': ['PIN required', 'other', 'pin_required'],
  '200P1': ['Over daily limit', 'limit_exceeded', 'limit_exceeded'],
  '200P9': ['Limit exceeded. Enter a lesser value.', 'limit_exceeded', 'limit_exceeded'],
  '200R1': ['Issuer initiated a stop payment (revocation order) for this authorization', 'other', 'authorization_revoked'],
  '200R3': ['Issuer initiated a stop payment (revocation order) for all authorizations', 'other', 'authorization_revoked'],
  '200S4': ['PTLF full', 'processor_unavailable', 'processor_error'],
  '200T2': ['Invalid transaction date', 'other', 'invalid_transaction_date'],
  '200T3': ['Card not supported', 'other', 'card_not_supported'],
  '200T5': ['CAF status = 0 or 9', 'processor_unavailable', 'processor_error'],
};

/** 30xxx: the issuer or the cardholder must act first; never retried here. */
const HARD: Readonly<Record<string, Entry>> = {
  '30004': ['Pick up card (No fraud)', 'lost_or_stolen', 'card_blocked'],
  '30007': ['Pick up card - Special conditions', 'lost_or_stolen', 'card_blocked'],
  '30015': ['No such issuer', 'invalid_card', 'invalid_card_number'],
  '30016': ['Issuer does not allow online gambling payout', 'other', 'transaction_not_permitted'],
  '30017': ['Issuer does not allow original credit transaction', 'other', 'transaction_not_permitted'],
  '30018': ['Issuer does not allow money transfer payout', 'other', 'transaction_not_permitted'],
  '30019': ['Issuer does not allow non-money transfer payout', 'other', 'transaction_not_permitted'],
  '30020': ['Invalid amount', 'other', 'invalid_amount'],
  '30021': ['Total amount limit reached', 'limit_exceeded', 'limit_exceeded'],
  '30022': ['Total transaction count limit reached', 'limit_exceeded', 'limit_exceeded'],
  '30033': ['Expired card - Pick up', 'expired_card', 'expired_card'],
  '30034': ['Suspected fraud - Pick up', 'suspected_fraud', 'suspected_fraud'],
  '30035': ['Contact acquirer - Pick up', 'lost_or_stolen', 'card_blocked'],
  '30036': ['Restricted card - Pick up', 'lost_or_stolen', 'card_blocked'],
  '30037': ['Call acquirer security - Pick up', 'suspected_fraud', 'suspected_fraud'],
  '30038': ['Allowable PIN tries exceeded - Pick up', 'lost_or_stolen', 'card_blocked'],
  '30041': ['Lost card - Pick up', 'lost_or_stolen', 'card_blocked'],
  '30043': ['Stolen card - Pick up', 'lost_or_stolen', 'card_blocked'],
  '30044': ['Transaction rejected - AMLD5', 'other', 'transaction_not_permitted'],
  '30045': ['Invalid payout fund transfer type', 'other', 'transaction_not_permitted'],
  '30046': ['Closed account', 'invalid_card', 'account_closed'],
};

/** 40xxx: Checkout.com's own fraud rules refused it (its risk settings); never sent elsewhere. */
const RISK: Readonly<Record<string, Entry>> = {
  '40101': ['Risk blocked transaction', 'suspected_fraud', 'risk_blocked'],
  '40201': ['Gateway reject - card number blocklist', 'suspected_fraud', 'risk_blocked'],
  '40202': ['Gateway reject - IP address blocklist', 'suspected_fraud', 'risk_blocked'],
  '40203': ['Gateway reject - email blocklist', 'suspected_fraud', 'risk_blocked'],
  '40204': ['Gateway reject - phone number blocklist', 'suspected_fraud', 'risk_blocked'],
  '40205': ['Gateway Reject - BIN number blocklist', 'suspected_fraud', 'risk_blocked'],
  '41101': ['Risk blocked transaction (client-level rule)', 'suspected_fraud', 'risk_blocked'],
  '42101': ['Risk blocked transaction (entity-level rule)', 'suspected_fraud', 'risk_blocked'],
};

export const CHECKOUT_RESPONSE_CODES: Readonly<Record<string, Entry>> = { ...SOFT, ...HARD, ...RISK };

/**
 * Our response code's entry: the table's, else by range (an unlisted 20xxx is a plain soft decline, 30xxx
 * a hard one, 40xxx a risk refusal).
 */
function entryOf(responseCode: string | null): { category: DeclineCategory; code: string; hard: boolean; summary: string | null } {
  const listed = responseCode !== null && Object.hasOwn(CHECKOUT_RESPONSE_CODES, responseCode) ? CHECKOUT_RESPONSE_CODES[responseCode]! : null;
  const hard = responseCode !== null && responseCode.startsWith('3');
  if (listed) return { category: listed[1], code: listed[2], hard, summary: listed[0] };
  if (responseCode?.startsWith('4')) return { category: 'suspected_fraud', code: 'risk_blocked', hard: false, summary: null };
  return { category: 'do_not_honor', code: 'card_declined', hard, summary: null };
}

/** A response code's failure_reason (webhooks, the 3-D Secure lookup's Authorization action). */
export function checkoutFailureReason(responseCode: unknown): string {
  return entryOf(typeof responseCode === 'string' ? responseCode : null).code;
}

/** The scheme's two characters inside a Checkout.com code that carries one (200NN, 300NN → NN: 20051 → 51, 200R1 → R1). */
export function networkCodeOf(responseCode: string | null): string | null {
  const match = responseCode ? /^[23]00([0-9A-Z]{2})$/.exec(responseCode) : null;
  return match ? match[1]! : null;
}

const member = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * A Declined payment (the /payments answer, the payment looked up after 3-D Secure, or a webhook's data)
 * as our decline. `responseCode`: the answer's own, or its Authorization action's.
 */
export function checkoutDecline(body: unknown, responseCode: unknown = member(body, 'response_code')): Decline {
  const code = typeof responseCode === 'string' ? responseCode : null;
  const entry = entryOf(code);
  const processing = member(body, 'processing');
  const scheme = text(member(member(body, 'source'), 'scheme'))?.toUpperCase() ?? null;
  const recommendation = text(member(processing, 'recommendation_code'));
  const mac = merchantAdviceCodeOf(member(processing, 'partner_merchant_advice_code'));
  return declineOf(entry, {
    processor_code: code,
    processor_message: text(member(body, 'response_summary')) ?? entry.summary,
    // Mastercard's own advice first; Checkout.com's recommendation (its reading of Visa's categories and the MAC) otherwise.
    advice_code: mac ?? recommendation,
    scheme_forbids_retry:
      entry.hard ||
      entry.code === 'authorization_revoked' ||
      visaForbidsRetry(scheme, text(member(processing, 'partner_response_code')) ?? networkCodeOf(code)),
  });
}

/** The card's country of issue Checkout.com reports (source.issuer_country), or null. */
export function checkoutIssuerCountry(body: unknown): string | null {
  const country = text(member(member(body, 'source'), 'issuer_country'));
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null;
}

import { declineOf, type Decline, type DeclineCategory } from '../../domain/declines/decline';
import { merchantAdviceCodeOf, visaForbidsRetry } from '../../domain/declines/scheme-rules';

/**
 * Adyen's refusal reasons → our declines. The list is Adyen's "Refusal reasons" page
 * (docs.adyen.com/development-resources/refusal-reasons): every `refusalReasonCode` with its
 * `refusalReason`, as the Checkout API v69 answers a Refused payment (codes 2–46; 0 goes with Authorised,
 * 1, 13 and 30 are not listed). Beside them, from the payment's `additionalData` (Customer Area →
 * Developers → Additional data): `merchantAdviceCode` (Mastercard's MAC, "03: Do not try again"),
 * `refusalReasonRaw` (the scheme's own code, "05 : Do not honor"; Visa's category 1 codes forbid a
 * retry), `paymentMethod` (visa, mc…) and `issuerCountry`. Every code has a case in adyen.declines.test.ts.
 */
interface AdyenRefusal {
  reason: string;
  category: DeclineCategory;
  /** Ours (the transaction's failure_reason); kept as the engine named them before declines existed. */
  code: string;
  /** Adyen or the scheme forbids another attempt whatever the advice says. */
  never_retry?: boolean;
}

export const ADYEN_REFUSALS: Readonly<Record<string, AdyenRefusal>> = {
  '2': { reason: 'Refused', category: 'do_not_honor', code: 'card_declined' },
  '3': { reason: 'Referral', category: 'do_not_honor', code: 'card_declined' },
  '4': { reason: 'Acquirer Error', category: 'processor_unavailable', code: 'processor_error' },
  '5': { reason: 'Blocked Card', category: 'lost_or_stolen', code: 'card_blocked' },
  '6': { reason: 'Expired Card', category: 'expired_card', code: 'expired_card' },
  '7': { reason: 'Invalid Amount', category: 'other', code: 'invalid_amount' },
  '8': { reason: 'Invalid Card Number', category: 'invalid_card', code: 'invalid_card_number' },
  '9': { reason: 'Issuer Unavailable', category: 'processor_unavailable', code: 'issuer_unavailable' },
  '10': { reason: 'Not supported', category: 'other', code: 'card_not_supported' },
  // A challenge the consumer failed is no decline (the engine records none); under three_ds off it is the issuer's demand for one.
  '11': { reason: '3D Not Authenticated', category: 'authentication_required', code: 'authentication_failed' },
  '12': { reason: 'Not enough balance', category: 'insufficient_funds', code: 'insufficient_funds' },
  '14': { reason: 'Acquirer Fraud', category: 'suspected_fraud', code: 'suspected_fraud' },
  '15': { reason: 'Cancelled', category: 'other', code: 'cancelled' },
  '16': { reason: 'Shopper Cancelled', category: 'other', code: 'cancelled' },
  '17': { reason: 'Invalid Pin', category: 'invalid_card', code: 'invalid_pin' },
  '18': { reason: 'Pin tries exceeded', category: 'limit_exceeded', code: 'pin_tries_exceeded' },
  '19': { reason: 'Pin validation not possible', category: 'other', code: 'pin_validation_not_possible' },
  '20': { reason: 'FRAUD', category: 'suspected_fraud', code: 'suspected_fraud' },
  '21': { reason: 'Not Submitted', category: 'processor_unavailable', code: 'processor_not_submitted' },
  '22': { reason: 'FRAUD-CANCELLED', category: 'suspected_fraud', code: 'suspected_fraud' },
  '23': { reason: 'Transaction Not Permitted', category: 'other', code: 'transaction_not_permitted' },
  '24': { reason: 'CVC Declined', category: 'invalid_card', code: 'invalid_security_code' },
  '25': { reason: 'Restricted Card', category: 'other', code: 'card_restricted' },
  // The cardholder revoked the authority for recurring payments (Visa R1/R3): never again.
  '26': { reason: 'Revocation Of Auth', category: 'other', code: 'authorization_revoked', never_retry: true },
  '27': { reason: 'Declined Non Generic', category: 'do_not_honor', code: 'card_declined' },
  '28': { reason: 'Withdrawal amount exceeded', category: 'limit_exceeded', code: 'limit_exceeded' },
  '29': { reason: 'Withdrawal count exceeded', category: 'limit_exceeded', code: 'limit_exceeded' },
  '31': { reason: 'Issuer Suspected Fraud', category: 'suspected_fraud', code: 'suspected_fraud' },
  '32': { reason: 'AVS Declined', category: 'other', code: 'avs_declined' },
  '33': { reason: 'Card requires online pin', category: 'other', code: 'pin_required' },
  '34': { reason: 'No checking account available on Card', category: 'other', code: 'account_not_available' },
  '35': { reason: 'No savings account available on Card', category: 'other', code: 'account_not_available' },
  '36': { reason: 'Mobile pin required', category: 'other', code: 'pin_required' },
  '37': { reason: 'Contactless fallback', category: 'other', code: 'contactless_fallback' },
  '38': { reason: 'Authentication required', category: 'authentication_required', code: 'authentication_required' },
  '39': { reason: 'RReq not received from DS', category: 'processor_unavailable', code: 'authentication_unavailable' },
  '40': { reason: 'Current AID is in Penalty Box', category: 'other', code: 'card_penalty_box' },
  '41': { reason: 'CVM Required Restart Payment', category: 'other', code: 'pin_required' },
  '42': { reason: '3DS Authentication Error', category: 'authentication_required', code: 'authentication_error' },
  '43': { reason: 'Online PIN required', category: 'other', code: 'pin_required' },
  '44': { reason: 'Try another interface', category: 'other', code: 'try_another_interface' },
  '45': { reason: 'Chip downgrade mode', category: 'other', code: 'chip_downgrade' },
  // Adyen stopped it because retrying this card costs scheme fees: retrying elsewhere is what it prevents.
  '46': { reason: 'Transaction blocked by Adyen to prevent excessive retry fees', category: 'other', code: 'retry_blocked', never_retry: true },
};

const BY_REASON = new Map(Object.entries(ADYEN_REFUSALS).map(([code, refusal]) => [refusal.reason.toLowerCase(), { ...refusal, refusalReasonCode: code }]));

/** Adyen's scheme names in additionalData.paymentMethod → ours. */
const SCHEMES: Readonly<Record<string, string>> = {
  visa: 'VISA',
  mc: 'MASTERCARD',
  amex: 'AMEX',
  discover: 'DISCOVER',
  cup: 'CUP',
  jcb: 'JCB',
  diners: 'DINERS',
  maestro: 'MAESTRO',
  cartebancaire: 'CARTES_BANCAIRES',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The scheme's own code at the start of Adyen's refusalReasonRaw ("05 : Do not honor" → 05; "R1: …" → R1). */
export function rawResponseCodeOf(refusalReasonRaw: unknown): string | null {
  const match = typeof refusalReasonRaw === 'string' ? /^\s*([0-9A-Z]{1,2})\s*:/i.exec(refusalReasonRaw) : null;
  return match ? match[1]!.toUpperCase().padStart(2, '0') : null;
}

/** A Refused answer's refusal (the text first, as Adyen documents its meaning; then the code), or null when neither is known. */
export function adyenRefusalOf(refusalReason: unknown, refusalReasonCode: unknown): (AdyenRefusal & { refusalReasonCode: string }) | null {
  const byReason = typeof refusalReason === 'string' ? BY_REASON.get(refusalReason.trim().toLowerCase()) : undefined;
  if (byReason) return byReason;
  const code = typeof refusalReasonCode === 'string' || typeof refusalReasonCode === 'number' ? String(refusalReasonCode).trim() : '';
  return Object.hasOwn(ADYEN_REFUSALS, code) ? { ...ADYEN_REFUSALS[code]!, refusalReasonCode: code } : null;
}

/** The decline of a Refused /payments (or /payments/details) answer; an unknown refusal is a plain decline. */
export function adyenDecline(body: unknown): Decline {
  const field = (name: string) => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined);
  const additional = field('additionalData');
  const extra = (name: string) => (typeof additional === 'object' && additional !== null ? (additional as Record<string, unknown>)[name] : undefined);
  const refusal = adyenRefusalOf(field('refusalReason'), field('refusalReasonCode'));
  const scheme = SCHEMES[String(extra('paymentMethod') ?? '').toLowerCase()] ?? null;
  return declineOf(refusal ?? { category: 'do_not_honor', code: 'card_declined' }, {
    processor_code: text(String(field('refusalReasonCode') ?? '')) ?? refusal?.refusalReasonCode ?? null,
    processor_message: text(field('refusalReason')),
    advice_code: merchantAdviceCodeOf(extra('merchantAdviceCode')),
    scheme_forbids_retry: refusal?.never_retry === true || visaForbidsRetry(scheme, rawResponseCodeOf(extra('refusalReasonRaw'))),
  });
}

/** The card's country of issue as Adyen reports it (additionalData.issuerCountry), or null. */
export function adyenIssuerCountry(body: unknown): string | null {
  const additional = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).additionalData : undefined;
  const country = typeof additional === 'object' && additional !== null ? (additional as Record<string, unknown>).issuerCountry : undefined;
  return typeof country === 'string' && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null;
}

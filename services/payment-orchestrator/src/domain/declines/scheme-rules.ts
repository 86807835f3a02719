/**
 * What the card schemes say about retrying a declined card, where a processor passes the scheme's own
 * words on. Sources (2026-11): Visa's decline categories ("Excessive Reattempts" rule, in force since
 * April 2021 / fees since 2022) as Checkout.com's "Visa response code categories" page and processors'
 * compliance notes list them (PayPal "How to avoid excessive retries penalties", CardPointe "Visa decline
 * rules", retries.com "Visa decline categories"); Mastercard's Merchant Advice Codes as Adyen's "Raw
 * acquirer responses" page and Braintree's network updates list them, and its Transaction Processing
 * Excellence programme (10 declined attempts on a card in 24 hours; 35 in 30 days since 1 November 2023).
 */

/**
 * Visa category 1, "issuer will never approve": the ISO 8583 response codes after which Visa allows no
 * reattempt at all (04 pick up, 07 pick up special conditions, 12 invalid transaction, 14 invalid account
 * number, 15 no such issuer, 41 lost, 43 stolen, 46 closed account, 57 not permitted to cardholder, R0 R1
 * R3 stop-payment and revocation orders).
 */
export const VISA_CATEGORY_1_CODES: readonly string[] = ['04', '07', '12', '14', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3'];

/** Whether a Visa card's raw response code is one Visa never allows to be reattempted (category 1). */
export function visaForbidsRetry(scheme: string | null, networkCode: string | null): boolean {
  if (networkCode === null || !isVisa(scheme)) return false;
  return VISA_CATEGORY_1_CODES.includes(networkCode.trim().toUpperCase().padStart(2, '0'));
}

const isVisa = (scheme: string | null) => scheme !== null && scheme.trim().toUpperCase() === 'VISA';
export const isMastercard = (scheme: string | null) => scheme !== null && ['MASTERCARD', 'MC'].includes(scheme.trim().toUpperCase());

/** Mastercard MAC 24–30: the issuer asks for the next attempt only after this long (1 hour … 10 days). */
const MAC_RETRY_AFTER_MS: Readonly<Record<string, number>> = {
  '24': 3_600_000,
  '25': 86_400_000,
  '26': 2 * 86_400_000,
  '27': 4 * 86_400_000,
  '28': 6 * 86_400_000,
  '29': 8 * 86_400_000,
  '30': 10 * 86_400_000,
};

/** How long Mastercard's advice (MAC 24–30) asks the merchant to wait before the next attempt; null when it sets no wait. */
export function mastercardRetryAfterMs(adviceCode: string | null): number | null {
  if (adviceCode === null) return null;
  return MAC_RETRY_AFTER_MS[adviceCode.trim()] ?? null;
}

/** The two-digit Merchant Advice Code at the start of a processor's text ("03: Do not try again" or "03"), else null. */
export function merchantAdviceCodeOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d{2})\b/.exec(value);
  return match ? match[1]! : null;
}

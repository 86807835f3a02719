import { CURRENCY_EXPONENTS } from './generated/currencies.js';

/*
 * Amounts as the API means them: integers in the currency's minor units by its ISO 4217 exponent (the API's
 * own table, generated into this package). Formatting divides by that exponent, never by Intl's fraction
 * digits for the currency, which ICU rounds for cash use (HUF, IDR, PKR… 0 instead of 2, IQD 0 instead of 3).
 */

/** The currency's ISO 4217 exponent (EUR 2, JPY 0, KWD 3, HUF 2), or undefined for a code the API does not know. */
export function minorUnitExponent(currency: string): number | undefined {
  return Object.hasOwn(CURRENCY_EXPONENTS, currency) ? CURRENCY_EXPONENTS[currency] : undefined;
}

/** Minor units in major units, exactly (string arithmetic): 150000 HUF → "1500.00", 1234 KWD → "1.234", -250 EUR → "-2.50". Unknown currency: two decimals. */
export function majorUnits(minor: number, currency: string): string {
  const exponent = minorUnitExponent(currency) ?? 2;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return minor < 0 ? `-${whole}` : whole;
}

/** Minor units as the locale writes the currency, with the API's decimals: 150000 HUF → "HUF 1,500.00" (en), 1999 EUR → "€19.99". */
export function formatAmount(minor: number, currency: string, locale = 'en'): string {
  const exponent = minorUnitExponent(currency) ?? 2;
  const major = majorUnits(minor, currency);
  try {
    // A decimal string keeps every digit (Intl.NumberFormat formats strings exactly).
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(
      major as unknown as number,
    );
  } catch {
    return `${major} ${currency}`;
  }
}

/** A major amount as typed ("12.5", "1500") in minor units (1250, 150000 for HUF); null when it is not a number or has more decimals than the currency. */
export function toMinorUnits(major: string, currency: string): number | null {
  const exponent = minorUnitExponent(currency) ?? 2;
  const match = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(major);
  if (!match || (match[2] ?? '').length > exponent) return null;
  return Number(`${match[1]}${(match[2] ?? '').padEnd(exponent, '0')}`);
}

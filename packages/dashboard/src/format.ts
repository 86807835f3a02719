// How amounts, dates and statuses read on every page.
import { formatAmount, majorUnits, minorUnitExponent, toMinorUnits } from '@vaultline/node';

/*
 * Amounts use the API's ISO 4217 table (the SDK's generated copy of the server's), never Intl's fraction
 * digits for the currency: ICU gives HUF, IDR, PKR… 0 decimals and IQD 0, so HUF 150000 read "HUF 150,000".
 */

/** How many decimals the currency's minor unit has (EUR 2, JPY 0, BHD 3, HUF 2); an unknown currency: 2. */
export function minorDigits(currency: string): number {
  return minorUnitExponent(currency) ?? 2;
}

/** A major amount typed in a form (12.50) in minor units of the currency (1250), exactly; NaN when it is not one. */
export function toMinor(major: string, currency: string): number {
  return toMinorUnits(major, currency) ?? Number.NaN;
}

/** Minor units in major units as a form shows them (1250 EUR → "12.50"), exactly. */
export function toMajor(minor: number, currency: string): string {
  return majorUnits(minor, currency);
}

/** Minor units as the currency writes them (1999 EUR → €19.99, 150000 HUF → HUF 1,500.00). */
export function money(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  return formatAmount(minor, currency, 'en');
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

const DATE_TIME_SECONDS = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** A time in UTC, to the minute; `seconds` where events follow each other quickly (a payment's timeline). */
export function dateTime(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${(seconds ? DATE_TIME_SECONDS : DATE_TIME).format(date)} UTC`;
}

/** A machine word (requested_by_customer) as words. */
export function words(value: string | null | undefined): string {
  if (!value) return '—';
  return value.replace(/[_.]/g, ' ');
}

/** The payments page filtered by the given fields. */
export function hrefOfPayments(filters: Record<string, string>): string {
  return `#/payments?${new URLSearchParams(filters).toString()}`;
}

/** A card's expiry as printed on it (07/2031). */
export function expiryOf(card: { expiry_month: number; expiry_year: number } | undefined): string {
  return card ? `${String(card.expiry_month).padStart(2, '0')}/${card.expiry_year}` : '—';
}

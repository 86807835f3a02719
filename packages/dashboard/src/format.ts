// How amounts, dates and statuses read on every page.

/** How many decimals the currency's minor unit has (EUR 2, JPY 0, BHD 3); an unknown currency: 2. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A major amount typed in a form (12.50) in minor units of the currency (1250). */
export function toMinor(major: string, currency: string): number {
  return Math.round(Number(major) * 10 ** minorDigits(currency));
}

/** Minor units in major units as a form shows them (1250 EUR → "12.50"). */
export function toMajor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** Minor units as the currency writes them (1999 EUR → €19.99); an unknown currency keeps two decimals. */
export function money(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** minorDigits(currency));
  } catch {
    return `${toMajor(minor, currency)} ${currency}`;
  }
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

export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.round((part / whole) * 1000) / 10}%`;
}

/** The payments page filtered by the given fields. */
export function hrefOfPayments(filters: Record<string, string>): string {
  return `#/payments?${new URLSearchParams(filters).toString()}`;
}

/** A card's expiry as printed on it (07/2031). */
export function expiryOf(card: { expiry_month: number; expiry_year: number } | undefined): string {
  return card ? `${String(card.expiry_month).padStart(2, '0')}/${card.expiry_year}` : '—';
}

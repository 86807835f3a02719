import { minorUnitExponent } from '@vaultline/contracts';

/**
 * The payments whose outcomes a success-rate decision compares: the same card scheme, country of issue
 * (where a processor reported it), currency and amount band. No card data: the scheme and the issuer's
 * country are what every processor says of a card anyway.
 */
export interface Segment {
  /** Upper case as the vault reports it (VISA, MASTERCARD…); `unknown` before the card is known. */
  scheme: string;
  /** ISO 3166-1 alpha-2 of the issuer, once a processor reported it for this card; else `unknown`. */
  country: string;
  currency_code: string;
  amount_band: AmountBand;
}

/** Bands of the amount in major units of its currency (so JPY 1500 and EUR 15.00 fall in one band). */
export const AMOUNT_BANDS = ['under_10', '10_to_100', '100_to_1000', '1000_and_over'] as const;
export type AmountBand = (typeof AMOUNT_BANDS)[number];

export const UNKNOWN = 'unknown';

export function amountBandOf(amount: number, currencyCode: string): AmountBand {
  const major = amount / 10 ** (minorUnitExponent(currencyCode) ?? 2);
  if (major < 10) return 'under_10';
  if (major < 100) return '10_to_100';
  if (major < 1000) return '100_to_1000';
  return '1000_and_over';
}

export function segmentOf(payment: {
  card_scheme: string | null;
  card_country?: string | null;
  currency_code: string;
  amount: { requested: number };
}): Segment {
  return {
    scheme: payment.card_scheme ? payment.card_scheme.trim().toUpperCase() : UNKNOWN,
    country: payment.card_country ? payment.card_country.trim().toUpperCase() : UNKNOWN,
    currency_code: payment.currency_code,
    amount_band: amountBandOf(payment.amount.requested, payment.currency_code),
  };
}

/**
 * How far a decision widens the segment when its processors have too few recent outcomes in it: first
 * any country, then any amount, then any scheme, then every payment of the merchant in this mode. The
 * narrowest level where each processor of the step has enough outcomes is the one compared.
 */
export const SEGMENT_LEVELS = ['segment', 'any_country', 'any_amount', 'currency', 'all'] as const;
export type SegmentLevel = (typeof SEGMENT_LEVELS)[number];

/** Whether an outcome recorded under `recorded` counts for `wanted` at this level. */
export function withinLevel(recorded: Segment, wanted: Segment, level: SegmentLevel): boolean {
  if (level === 'all') return true;
  if (recorded.currency_code !== wanted.currency_code) return false;
  if (level === 'currency') return true;
  if (recorded.scheme !== wanted.scheme) return false;
  if (level === 'any_amount') return true;
  if (recorded.amount_band !== wanted.amount_band) return false;
  return level === 'any_country' || recorded.country === wanted.country;
}

/** Words for a segment at a level ("VISA, EUR, 10_to_100, any country"). */
export function describeSegment(segment: Segment, level: SegmentLevel): string {
  switch (level) {
    case 'segment':
      return `${segment.scheme} cards issued in ${segment.country}, ${segment.currency_code}, amount ${segment.amount_band}`;
    case 'any_country':
      return `${segment.scheme} cards, ${segment.currency_code}, amount ${segment.amount_band}`;
    case 'any_amount':
      return `${segment.scheme} cards, ${segment.currency_code}, any amount`;
    case 'currency':
      return `${segment.currency_code} payments`;
    case 'all':
      return 'every payment';
  }
}

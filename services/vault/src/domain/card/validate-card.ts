import { isLuhnValid, maskAccountNumber, ValidationError, type Clock } from '@vaultline/core';
import { detectScheme, securityCodeLengthsOf, type Scheme } from './card-scheme';

/** Card input as it arrives: strings (the import platform sends strings) or numbers. */
export interface CardInput {
  number: unknown;
  exp_month?: unknown;
  exp_year?: unknown;
  cvc?: unknown;
  name?: unknown;
}

export interface ValidCard {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
  securityCode: string | null;
  cardholderName: string | null;
  scheme: Scheme;
  maskedAccountNumber: string;
}

export interface ValidateOptions {
  /** Prefix of field names in errors ("card."). */
  fieldPrefix?: string;
  requireSecurityCode?: boolean;
}

export const NAME_MAX_LENGTH = 100;
/** Cards are issued for at most about 20 years; further years are typos. */
const MAX_YEARS_AHEAD = 30;

/**
 * Validates and normalises card data. Errors name the field and never echo the value.
 * Accepted formats (what Stripe's Vault and Forward replacements and our own forms produce):
 * the number with spaces or dashes, months "4" / "04" / 4, years "2030" / "30" / 2030,
 * and an expiry "MM/YY" or "MM/YYYY" in exp_month when exp_year is empty.
 */
export function validateCard(input: CardInput, clock: Clock, options: ValidateOptions = {}): ValidCard {
  const prefix = options.fieldPrefix ?? 'card.';
  const field = (name: string): string => `${prefix}${name}`;

  const pan = normaliseNumber(input.number, field('number'));
  const info = detectScheme(pan);
  if (!info.lengths.includes(pan.length)) {
    throw new ValidationError(field('number'), `The card number has the wrong length for a ${info.scheme} card.`, 'invalid_card_number');
  }
  if (!isLuhnValid(pan)) throw new ValidationError(field('number'), 'The card number is not valid (check digit).', 'invalid_card_number');

  const { month, year } = normaliseExpiry(input.exp_month, input.exp_year, field);
  const now = clock.now();
  const currentYear = now.getUTCFullYear();
  if (year > currentYear + MAX_YEARS_AHEAD) {
    throw new ValidationError(field('exp_year'), 'The expiry year is too far in the future.', 'invalid_expiry_year');
  }
  if (year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1)) {
    throw new ValidationError(field('exp_year'), 'The card has expired.', 'card_expired');
  }

  const securityCode = normaliseSecurityCode(input.cvc, info.securityCodeLengths, info.scheme, field('cvc'));
  if (securityCode === null && options.requireSecurityCode) {
    throw new ValidationError(field('cvc'), 'The security code is required.', 'invalid_security_code');
  }

  return {
    pan,
    expiryMonth: month,
    expiryYear: year,
    securityCode,
    cardholderName: normaliseName(input.name, field('name')),
    scheme: info.scheme,
    maskedAccountNumber: maskAccountNumber(pan),
  };
}

function normaliseNumber(value: unknown, field: string): string {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') throw new ValidationError(field, 'The card number is required.', 'invalid_card_number');
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) throw new ValidationError(field, 'The card number may contain only digits, spaces and dashes.', 'invalid_card_number');
  if (digits.length < 12 || digits.length > 19) throw new ValidationError(field, 'The card number must have 12 to 19 digits.', 'invalid_card_number');
  return digits;
}

function toDigits(value: unknown): string | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value)) return value.trim();
  return null;
}

function normaliseExpiry(monthInput: unknown, yearInput: unknown, field: (name: string) => string): { month: number; year: number } {
  let monthValue = monthInput;
  let yearValue = yearInput;
  const yearMissing = yearValue === undefined || yearValue === null || yearValue === '';
  if (yearMissing && typeof monthValue === 'string') {
    const combined = /^\s*(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})\s*$/.exec(monthValue);
    if (combined) [monthValue, yearValue] = [combined[1], combined[2]];
  }
  const monthDigits = toDigits(monthValue);
  const month = monthDigits === null ? NaN : Number(monthDigits);
  if (!Number.isInteger(month) || month < 1 || month > 12 || (monthDigits?.length ?? 0) > 2) {
    throw new ValidationError(field('exp_month'), 'The expiry month must be a number from 1 to 12.', 'invalid_expiry_month');
  }
  const yearDigits = toDigits(yearValue);
  if (yearDigits === null || (yearDigits.length !== 2 && yearDigits.length !== 4)) {
    throw new ValidationError(field('exp_year'), 'The expiry year must have four digits (two are accepted and read as 20YY).', 'invalid_expiry_year');
  }
  const year = yearDigits.length === 2 ? 2000 + Number(yearDigits) : Number(yearDigits);
  return { month, year };
}

/** A security code entered alone (a stored card confirmed on the hosted page), checked against the card's scheme. */
export function validateSecurityCode(value: unknown, scheme: Scheme, field: string): string {
  const code = normaliseSecurityCode(value, securityCodeLengthsOf(scheme), scheme, field);
  if (code === null) throw new ValidationError(field, 'The security code is required.', 'invalid_security_code');
  return code;
}

function normaliseSecurityCode(value: unknown, lengths: number[], scheme: Scheme, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d+$/.test(text.trim()) || !lengths.includes(text.trim().length)) {
    const expected = lengths.join(' or ');
    throw new ValidationError(field, `The security code must have ${expected} digits${scheme === 'UNKNOWN' ? '' : ` for ${scheme}`}.`, 'invalid_security_code');
  }
  return text.trim();
}

function normaliseName(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ValidationError(field, 'The cardholder name must be text.', 'invalid_cardholder_name');
  const name = value.replace(/\s+/g, ' ').trim();
  if (name === '') return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ValidationError(field, 'The cardholder name contains control characters.', 'invalid_cardholder_name');
  if (name.length > NAME_MAX_LENGTH) {
    throw new ValidationError(field, `The cardholder name must be at most ${NAME_MAX_LENGTH} characters.`, 'invalid_cardholder_name');
  }
  return name;
}

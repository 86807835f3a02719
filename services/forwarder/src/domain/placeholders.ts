import { type CardData } from './card-data';
import { SecurityCodeExpiredError, SecurityCodeUnavailableError } from './forward-errors';

export const PLACEHOLDER_NAMES = ['account_number', 'expiration_month', 'expiration_year', 'security_code'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

/** `{{ name }}` with optional spaces inside the braces. */
export const PLACEHOLDER_PATTERN = /\{\{\s*(account_number|expiration_month|expiration_year|security_code)\s*\}\}/g;

const ANY_PLACEHOLDER = new RegExp(PLACEHOLDER_PATTERN.source);
const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_PATTERN.source}$`);

/** True when `text` holds placeholder text anywhere. */
export function hasPlaceholder(text: string): boolean {
  return text.includes('{{') && ANY_PLACEHOLDER.test(text);
}

/** The placeholder that `text` is, whole (`{{ account_number }}`); null for anything else. */
export function wholePlaceholderOf(text: string): PlaceholderName | null {
  return (WHOLE_PLACEHOLDER.exec(text)?.[1] as PlaceholderName | undefined) ?? null;
}

/**
 * Text forms used inside strings (JSON string values, form values): the account number and
 * security code as digits, the month zero-padded to two digits ("03", what Adyen's expiryMonth
 * and Stripe's card[exp_month] accept), the year with four digits.
 */
export function placeholderText(name: PlaceholderName, card: CardData): string {
  switch (name) {
    case 'account_number':
      return card.number.reveal();
    case 'expiration_month':
      return String(card.expMonth.reveal()).padStart(2, '0');
    case 'expiration_year':
      return String(card.expYear.reveal()).padStart(4, '0');
    case 'security_code':
      return securityCodeOf(card);
  }
}

/**
 * Typed JSON value of a placeholder standing alone as a JSON value: expiry month and year become
 * integers (Checkout.com's expiry_month 3, expiry_year 2030); the account number and the security
 * code stay strings (a 19-digit number loses precision as a JSON number; a code keeps leading zeros).
 */
export function placeholderValue(name: PlaceholderName, card: CardData): string | number {
  if (name === 'expiration_month') return card.expMonth.reveal();
  if (name === 'expiration_year') return card.expYear.reveal();
  return placeholderText(name, card);
}

function securityCodeOf(card: CardData): string {
  if (card.securityCodeStatus === 'expired') throw new SecurityCodeExpiredError();
  if (card.securityCodeStatus === 'not_collected' || card.securityCode === null) throw new SecurityCodeUnavailableError();
  return card.securityCode.reveal();
}

/** Fails before anything is sent when the body needs card data the token cannot give. */
export function assertFillable(names: Iterable<PlaceholderName>, card: CardData): void {
  for (const name of new Set(names)) {
    if (name === 'security_code') securityCodeOf(card);
  }
}

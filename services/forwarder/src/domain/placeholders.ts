import { type CardData } from './card-data';
import { SecurityCodeExpiredError, SecurityCodeUnavailableError } from './forward-errors';

export const PLACEHOLDER_NAMES = ['account_number', 'expiration_month', 'expiration_year', 'security_code'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

/** `{{ name }}` with optional spaces inside the braces. */
export const PLACEHOLDER_PATTERN = /\{\{\s*(account_number|expiration_month|expiration_year|security_code)\s*\}\}/g;

export function placeholdersIn(text: string): PlaceholderName[] {
  return [...text.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1] as PlaceholderName);
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

export function replaceInText(text: string, card: CardData): string {
  return text.replace(PLACEHOLDER_PATTERN, (_match, name: PlaceholderName) => placeholderText(name, card));
}

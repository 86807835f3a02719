/**
 * The languages the hosted checkout page speaks. A payment's `locale` is one of them, with an optional
 * region (`de-CH`: German words, Swiss number format); the orchestrator refuses others and the vault
 * drops them from events, so both read the same rule.
 */
export const CHECKOUT_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'it'] as const;
export type CheckoutLanguage = (typeof CHECKOUT_LANGUAGES)[number];

/** The longest order line (`description`) a payment may carry to the page. */
export const MAX_CHECKOUT_DESCRIPTION_LENGTH = 200;

const LOCALE = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i;

/** `value` written canonically (`de`, `de-CH`) when the page speaks its language, else null. */
export function checkoutLocaleOf(value: string): string | null {
  const match = LOCALE.exec(value);
  if (!match) return null;
  const language = match[1]!.toLowerCase();
  if (!(CHECKOUT_LANGUAGES as readonly string[]).includes(language)) return null;
  return match[2] ? `${language}-${match[2].toUpperCase()}` : language;
}

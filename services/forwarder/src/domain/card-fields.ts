import { PlaceholderNotAllowedError } from './forward-errors';
import type { PlaceholderName } from './placeholders';

/**
 * The card fields of a destination: each field that may hold card data and the one placeholder it
 * takes. A JSON field is a path of object keys joined by dots (`paymentMethod.number`); a form field
 * is the field name (`card[number]`). A placeholder anywhere else — inside other text, in another
 * field, in a key — could make a destination echo card data back to the merchant, so it is refused.
 */
export type CardFields = Readonly<Record<string, PlaceholderName>>;

/** How a quoted placeholder that is a whole JSON string value is typed (see fillJsonBody). */
export type WholeValueTyping = 'string' | 'integer-expiry';

export interface CardFieldProfile {
  fields: CardFields;
  typing: WholeValueTyping;
}

/** Adyen Checkout API v69 /payments: paymentMethod of type scheme (holderName is not card data we fill). */
export const ADYEN_V69_PAYMENTS: CardFieldProfile = {
  fields: { 'paymentMethod.number': 'account_number', 'paymentMethod.expiryMonth': 'expiration_month', 'paymentMethod.expiryYear': 'expiration_year', 'paymentMethod.cvc': 'security_code' },
  typing: 'string',
};

/** Checkout.com /payments with a card source; it wants integer expiry fields. */
export const CHECKOUT_PAYMENTS: CardFieldProfile = {
  fields: { 'source.number': 'account_number', 'source.expiry_month': 'expiration_month', 'source.expiry_year': 'expiration_year', 'source.cvv': 'security_code' },
  typing: 'integer-expiry',
};

/** Stripe payment-method creation, form-encoded. */
export const STRIPE_PAYMENT_METHODS: CardFieldProfile = {
  fields: { 'card[number]': 'account_number', 'card[exp_month]': 'expiration_month', 'card[exp_year]': 'expiration_year', 'card[cvc]': 'security_code' },
  typing: 'string',
};

export const NO_CARD_FIELDS: CardFieldProfile = { fields: {}, typing: 'string' };

/** The catalog's paths and their card fields, for destinations added without fields of their own. */
const PROFILES_BY_PATH: ReadonlyArray<[path: string, profile: CardFieldProfile]> = [
  ['/v69/payments', ADYEN_V69_PAYMENTS],
  ['/v1/payment_methods', STRIPE_PAYMENT_METHODS],
  ['/payments', CHECKOUT_PAYMENTS],
];

/**
 * The card fields of the catalog entry whose path ends `path` (whole segments; the longest wins, so
 * `/adyen/v69/payments` is Adyen's and `/acme/payments` Checkout.com's); none when no path matches.
 */
export function profileForPath(path: string): CardFieldProfile {
  let best: [string, CardFieldProfile] | undefined;
  for (const entry of PROFILES_BY_PATH) {
    if (path.endsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1] ?? NO_CARD_FIELDS;
}

/** A field as declared: its key path for JSON bodies, its name for form bodies. */
export function cardFieldPath(field: string): string[] {
  return field.split('.');
}

/** One place in a body where placeholder text appears. */
export interface PlaceholderUse {
  /** The field as a merchant reads it (`paymentMethod.number`, `items[0].name`, `card[number]`). */
  field: string;
  /** JSON: the keys and indexes down to the value; form: the field name alone. */
  path: ReadonlyArray<string | number>;
  /** The placeholder when it is the whole value (quoted or bare); null for text around it, several, or a key. */
  whole: PlaceholderName | null;
}

/** The placeholders a body may be filled with, once every use is a whole value of its own card field. */
export function checkPlacement(uses: readonly PlaceholderUse[], fields: CardFields, format: 'json' | 'form'): PlaceholderName[] {
  const names: PlaceholderName[] = [];
  for (const use of uses) {
    const declared = use.whole === null ? undefined : declaredField(use, fields, format);
    if (declared === undefined || fields[declared] !== use.whole) throw new PlaceholderNotAllowedError(use.field, Object.keys(fields));
    names.push(use.whole!);
  }
  return names;
}

function declaredField(use: PlaceholderUse, fields: CardFields, format: 'json' | 'form'): string | undefined {
  if (format === 'form') return typeof use.path[0] === 'string' && use.path.length === 1 && Object.hasOwn(fields, use.path[0]) ? use.path[0] : undefined;
  // Compared key by key: a key that itself contains a dot never passes for a nested field.
  return Object.keys(fields).find((field) => {
    const keys = cardFieldPath(field);
    return keys.length === use.path.length && keys.every((key, i) => use.path[i] === key);
  });
}

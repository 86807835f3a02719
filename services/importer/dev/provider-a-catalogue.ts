/**
 * The deterministic account the provider_a simulator serves: N customers × M card payment
 * methods, generated from their index (nothing is held in memory, so 100,000 cards cost nothing).
 * Test data only: every PAN is a Luhn-valid number on a test range of its scheme.
 */

export interface SimulatedCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'discover';
  exp_month: number;
  exp_year: number;
  cvc: string;
  name: string;
}

const SCHEMES: { brand: SimulatedCard['brand']; prefix: string; length: number; cvcLength: number }[] = [
  { brand: 'visa', prefix: '4000', length: 16, cvcLength: 3 },
  { brand: 'mastercard', prefix: '5200', length: 16, cvcLength: 3 },
  { brand: 'amex', prefix: '3782', length: 15, cvcLength: 4 },
  { brand: 'discover', prefix: '6011', length: 16, cvcLength: 3 },
];

const pad = (n: number, width = 6): string => String(n).padStart(width, '0');

/** `tag` (lower-case letters) keeps the ids of two simulated accounts apart. */
export const customerId = (index: number, tag = ''): string => `cus_sim${tag}${pad(index)}`;
export const paymentMethodId = (customer: number, card: number, tag = ''): string => `pm_sim${tag}${pad(customer)}x${pad(card, 3)}`;

export function customerIndexOf(id: string): number | null {
  const match = /^cus_sim[a-z]*(\d{6})$/.exec(id);
  return match ? Number(match[1]) : null;
}

export function paymentMethodIndexOf(id: string): { customer: number; card: number } | null {
  const match = /^pm_sim[a-z]*(\d{6})x(\d{3})$/.exec(id);
  return match ? { customer: Number(match[1]), card: Number(match[2]) } : null;
}

function luhnCheckDigit(body: string): string {
  let sum = 0;
  let double = true;
  for (let i = body.length - 1; i >= 0; i--) {
    let d = body.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Card `card` of customer `customer`; `invalid` breaks its check digit (a card the vault must refuse). */
export function cardOf(customer: number, card: number, invalid = false): SimulatedCard {
  const serial = customer * 1000 + card;
  const scheme = SCHEMES[serial % SCHEMES.length]!;
  const middleLength = scheme.length - scheme.prefix.length - 1;
  const middle = pad(serial, middleLength).slice(-middleLength);
  const body = scheme.prefix + middle;
  const check = luhnCheckDigit(body);
  const digit = invalid ? String((Number(check) + 1) % 10) : check;
  return {
    number: body + digit,
    brand: scheme.brand,
    exp_month: (serial % 12) + 1,
    exp_year: 2030 + (serial % 6),
    cvc: pad(serial % 10 ** scheme.cvcLength, scheme.cvcLength),
    name: `Customer ${customer} Card ${card}`,
  };
}

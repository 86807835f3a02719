import { AppError } from '@vaultline/core';
import { majorUnits, minorUnitExponent } from '@vaultline/contracts';

/**
 * How a processor takes amounts: its own decimals where they differ from ISO 4217, the steps its amounts
 * must keep, its smallest charge and its largest amount. Each plugin declares its own in its folder
 * (`<id>.amounts.ts`, the documentation cited in its tests); the API's amounts are ISO minor units, and
 * its mappers convert at their boundary, both ways (toProcessorAmount, fromProcessorAmount).
 */
export interface ProcessorAmounts {
  /** How its refusals name it (Stripe, Adyen, Checkout.com). */
  processor: string;
  /** The currencies whose decimals at the processor differ from ISO 4217 (Stripe: MGA 0, ISK 2). */
  exponents: Readonly<Record<string, number>>;
  /** Amounts it takes only in steps of `of` of its own units, and the rule that says so (Stripe: KWD 10, "the last digit must be 0"). */
  steps: Readonly<Record<string, { of: number; rule: string }>>;
  /** The smallest charge (authorization) it takes, in major units as its documentation writes them ("0.50"). */
  minimumCharges: Readonly<Record<string, string>>;
  /** The largest value it takes, in its own units: per currency, else `default` (null: none below the API's own maximum). */
  maximumValues: { default: number | null; byCurrency?: Readonly<Record<string, number>>; rule: string };
}

/** What an amount is sent for: a charge (the authorization) meets the minimum too; captures and refunds only the units. */
export type AmountPurpose = 'charge' | 'capture' | 'refund';

/** A processor that declares nothing takes ISO minor units without limits (the simulator). */
export const ISO_AMOUNTS: ProcessorAmounts = {
  processor: 'the processor',
  exponents: {},
  steps: {},
  minimumCharges: {},
  maximumValues: { default: null, rule: '' },
};

/** The amount cannot go to the processor as it is: nothing was sent. `detail` names the processor's rule. */
export class AmountNotSupported extends AppError {
  constructor(detail: string) {
    super('amount_not_supported', 422, detail, { field: 'amount' });
  }
}

function isoExponentOf(currency: string): number {
  const exponent = minorUnitExponent(currency);
  if (exponent === undefined) throw new Error(`${currency} is not an ISO 4217 currency`);
  return exponent;
}

/** The processor's decimals for the currency. */
function processorExponent(amounts: ProcessorAmounts, currency: string): number {
  return amounts.exponents[currency] ?? isoExponentOf(currency);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The step an ISO amount must keep for the processor to take it exactly: 100 for CVE at Adyen (whole
 * escudos), 10 for KWD at Stripe (last digit 0), 1 for ISK at Stripe (its two decimals always 00).
 */
function isoStep(amounts: ProcessorAmounts, currency: string): number {
  const shift = processorExponent(amounts, currency) - isoExponentOf(currency);
  const step = amounts.steps[currency]?.of ?? 1;
  return shift >= 0 ? step / gcd(step, 10 ** shift) : step * 10 ** -shift;
}

/**
 * Why the processor cannot take this amount (pure), or null when it can: the refusal names the
 * processor's rule, the amount in major units and the nearest amounts it takes.
 */
export function amountProblem(amounts: ProcessorAmounts, amount: number, currency: string, purpose: AmountPurpose): string | null {
  const name = amounts.processor;
  const shown = `${currency} ${majorUnits(amount, currency)}`;
  const step = isoStep(amounts, currency);
  if (amount % step !== 0) {
    const below = amount - (amount % step);
    const nearest = below > 0 ? `${below} or ${below + step}` : `${below + step}`;
    const rule =
      amounts.steps[currency]?.rule ??
      `${name} takes ${currency} with ${processorExponent(amounts, currency)} decimals where ISO 4217 has ${isoExponentOf(currency)}`;
    return `${name} cannot take amount ${amount} (${shown}): ${rule}, so the amount must be a multiple of ${step} in minor units, such as ${nearest}.`;
  }
  if (purpose === 'charge') {
    const minimum = amounts.minimumCharges[currency];
    const minimumMinor = minimum === undefined ? 0 : minorOf(minimum, currency);
    if (amount < minimumMinor)
      return `${name} cannot take amount ${amount} (${shown}): its minimum charge in ${currency} is ${minimum} (${minimumMinor} in minor units).`;
  }
  const maximum = amounts.maximumValues.byCurrency?.[currency] ?? amounts.maximumValues.default;
  if (maximum !== null && toUnits(amounts, amount, currency) > maximum) {
    return `${name} cannot take amount ${amount} (${shown}): ${amounts.maximumValues.rule} (${maximum} in its units of ${currency}).`;
  }
  return null;
}

/** Refuses (422 amount_not_supported, naming the rule) an amount the processor cannot take; nothing is sent. */
export function assertAmountTaken(amounts: ProcessorAmounts | undefined, amount: number, currency: string, purpose: AmountPurpose): void {
  const problem = amountProblem(amounts ?? ISO_AMOUNTS, amount, currency, purpose);
  if (problem) throw new AmountNotSupported(problem);
}

function toUnits(amounts: ProcessorAmounts, amount: number, currency: string): number {
  const shift = processorExponent(amounts, currency) - isoExponentOf(currency);
  return shift >= 0 ? amount * 10 ** shift : amount / 10 ** -shift;
}

/**
 * An API amount (ISO minor units) in the processor's units, for a request: CVE 12300 → 123 at Adyen,
 * ISK 2790 → 279000 at Stripe. One that does not convert exactly, or breaks a step, is refused (the
 * engine checks before sending, so reaching this is a bug upstream, never a rounded charge).
 */
export function toProcessorAmount(amounts: ProcessorAmounts, amount: number, currency: string): number {
  const step = isoStep(amounts, currency);
  if (amount % step !== 0) throw new AmountNotSupported(amountProblem(amounts, amount, currency, 'capture')!);
  return toUnits(amounts, amount, currency);
}

/**
 * An amount in the processor's units (an answer, a webhook: captures, refunds, disputes) in ISO minor
 * units (an unknown currency's value as given). Exact whenever the processor keeps its own rules; a value finer than the ISO minor unit (CLP
 * with centavos at Adyen) is rounded to the nearest unit, half up, as the merchant's books can hold no less.
 */
export function fromProcessorAmount(amounts: ProcessorAmounts, value: number, currency: string): number {
  // A currency outside ISO 4217 has no table to convert by: its value stays as the processor gave it.
  if (minorUnitExponent(currency) === undefined) return value;
  const shift = processorExponent(amounts, currency) - isoExponentOf(currency);
  return shift >= 0 ? Math.round(value / 10 ** shift) : value * 10 ** -shift;
}

/** "0.50" EUR → 50, "50" JPY → 50, exactly (string arithmetic). */
function minorOf(major: string, currency: string): number {
  const exponent = isoExponentOf(currency);
  const [whole = '0', fraction = ''] = major.split('.');
  if (fraction.length > exponent) throw new Error(`${major} has more decimals than ${currency}`);
  return Number(`${whole}${fraction.padEnd(exponent, '0')}`);
}

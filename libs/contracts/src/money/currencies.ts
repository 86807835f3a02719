/**
 * ISO 4217 currencies with their minor-unit exponent: the one table every part of Vaultline reads (the
 * API's validation, the processors' unit conversions, the hosted page, the dashboard and the SDK through
 * its generated copy). A table rather than Intl: ICU's data differs between builds and rounds some
 * exponents for cash use (Chromium and Node give HUF, IDR, PKR… 0 decimals and IQD 0 where ISO says 2
 * and 3), while an amount in minor units must mean the same thing everywhere.
 */
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND';
const EXPONENT_4 = 'CLF UYW';
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK ' +
  'DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT ' +
  'LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN ' +
  'QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS ' +
  'VES WST XCD YER ZAR ZMW ZWL';

/** Every code with its exponent, in alphabetical order (the SDK's generated table is written from this). */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(
    (
      [
        [EXPONENT_0, 0],
        [EXPONENT_2, 2],
        [EXPONENT_3, 3],
        [EXPONENT_4, 4],
      ] as const
    )
      .flatMap(([list, exponent]) => list.split(' ').map((code) => [code, exponent] as const))
      .sort(([a], [b]) => a.localeCompare(b)),
  ),
);

/** The minor-unit exponent of an ISO 4217 currency (EUR 2, JPY 0, KWD 3), or undefined for an unknown code. */
export function minorUnitExponent(currencyCode: string): number | undefined {
  return Object.hasOwn(CURRENCY_EXPONENTS, currencyCode) ? CURRENCY_EXPONENTS[currencyCode] : undefined;
}

export function isCurrencyCode(value: string): boolean {
  return minorUnitExponent(value) !== undefined;
}

/**
 * The largest amount the API takes, in minor units of any currency: twelve digits, the most any of the
 * processors takes (Stripe's IDR; eight digits for its other currencies, nine at Checkout.com). Amounts
 * up to it stay exact through every conversion (×100 at most) and in sums of thousands of them.
 */
export const MAX_AMOUNT = 999_999_999_999;

/**
 * Minor units written in major units, exactly (string arithmetic, no floating point): 150000 HUF →
 * "1500.00", 1234 KWD → "1.234", 500 JPY → "500", -250 EUR → "-2.50". Unknown currency: two decimals.
 */
export function majorUnits(minor: number, currencyCode: string): string {
  const exponent = minorUnitExponent(currencyCode) ?? 2;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return minor < 0 ? `-${whole}` : whole;
}

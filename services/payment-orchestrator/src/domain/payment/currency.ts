/**
 * ISO 4217 currencies with their minor-unit exponent. A table rather than Intl: ICU's data differs
 * between Node builds (and rounds some exponents for cash use), while an amount in minor units must
 * mean the same thing on every instance.
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

const exponents = new Map<string, number>();
for (const [list, exponent] of [[EXPONENT_0, 0], [EXPONENT_2, 2], [EXPONENT_3, 3], [EXPONENT_4, 4]] as const) {
  for (const code of list.split(' ')) exponents.set(code, exponent);
}

/** The minor-unit exponent of an ISO 4217 currency (EUR 2, JPY 0, KWD 3), or undefined for an unknown code. */
export function minorUnitExponent(currencyCode: string): number | undefined {
  return exponents.get(currencyCode);
}

export function isCurrencyCode(value: string): boolean {
  return exponents.has(value);
}

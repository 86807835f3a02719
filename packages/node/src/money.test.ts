import { CURRENCY_EXPONENTS as API_TABLE } from '@vaultline/contracts';
import { CURRENCY_EXPONENTS } from './generated/currencies.js';
import { formatAmount, majorUnits, minorUnitExponent, toMinorUnits } from './money.js';

describe("amounts in the SDK, by the API's ISO 4217 table", () => {
  it("when the SDK reads an exponent, then it is the API's own table (generated from libs/contracts)", () => {
    expect(CURRENCY_EXPONENTS).toEqual(API_TABLE);
    expect([
      minorUnitExponent('EUR'),
      minorUnitExponent('JPY'),
      minorUnitExponent('KWD'),
      minorUnitExponent('HUF'),
      minorUnitExponent('IQD'),
      minorUnitExponent('XXX'),
    ]).toEqual([2, 0, 3, 2, 3, undefined]);
  });

  it.each([
    [150000, 'HUF', 'HUF 1,500.00'],
    [150000, 'AFN', 'AFN 1,500.00'],
    [1500000, 'IQD', 'IQD 1,500.000'],
    [1500, 'JPY', '¥1,500'],
    [1234, 'KWD', 'KWD 1.234'],
    [2450, 'EUR', '€24.50'],
    [-250, 'EUR', '-€2.50'],
  ])('when %i %s is formatted, then it reads "%s" (the API\'s decimals, not ICU\'s)', (minor, currency, shown) => {
    expect(formatAmount(minor, currency).replace(/\u00a0/g, ' ')).toBe(shown);
  });

  it('when an amount is written in major units, then every digit is kept (no floating point)', () => {
    expect([majorUnits(999_999_999_999, 'EUR'), majorUnits(5, 'KWD'), majorUnits(7, 'JPY')]).toEqual(['9999999999.99', '0.005', '7']);
  });

  it('when a typed major amount is read, then it is exact minor units, and one with more decimals than the currency has is refused', () => {
    expect([
      toMinorUnits('12.5', 'EUR'),
      toMinorUnits('1500', 'HUF'),
      toMinorUnits('1.234', 'KWD'),
      toMinorUnits('0.29', 'EUR'),
      toMinorUnits('500', 'JPY'),
    ]).toEqual([1250, 150000, 1234, 29, 500]);
    expect([toMinorUnits('1.5', 'JPY'), toMinorUnits('12.345', 'EUR'), toMinorUnits('abc', 'EUR'), toMinorUnits('', 'EUR')]).toEqual([null, null, null, null]);
  });
});

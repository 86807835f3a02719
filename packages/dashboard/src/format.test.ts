import { expiryOf, minorDigits, money, toMajor, toMinor } from './format';

describe('amounts as people read and type them', () => {
  it('when a currency has 0, 2 or 3 decimals, then typed amounts become minor units and back by its own exponent', () => {
    expect([minorDigits('EUR'), minorDigits('JPY'), minorDigits('BHD')]).toEqual([2, 0, 3]);
    expect([toMinor('12.50', 'EUR'), toMinor('1250', 'JPY'), toMinor('1.235', 'BHD')]).toEqual([1250, 1250, 1235]);
    expect([toMajor(1250, 'EUR'), toMajor(1250, 'JPY'), toMajor(1235, 'BHD')]).toEqual(['12.50', '1250', '1.235']);
  });

  it('when an amount is shown, then it reads in the currency, and a card expiry as printed', () => {
    expect(money(1999, 'EUR')).toBe('€19.99');
    expect(money(1999, 'JPY')).toBe('¥1,999');
    expect(money(null, 'EUR')).toBe('—');
    expect(expiryOf({ expiry_month: 7, expiry_year: 2031 })).toBe('07/2031');
  });
});

import { expiryOf, minorDigits, money, toMajor, toMinor } from './format';

describe('amounts as people read and type them', () => {
  it('when a currency has 0, 2 or 3 decimals, then typed amounts become minor units and back by its own exponent', () => {
    expect([minorDigits('EUR'), minorDigits('JPY'), minorDigits('BHD'), minorDigits('HUF'), minorDigits('IQD')]).toEqual([2, 0, 3, 2, 3]);
    expect([toMinor('12.50', 'EUR'), toMinor('1250', 'JPY'), toMinor('1.235', 'BHD')]).toEqual([1250, 1250, 1235]);
    expect([toMajor(1250, 'EUR'), toMajor(1250, 'JPY'), toMajor(1235, 'BHD'), toMajor(150000, 'HUF')]).toEqual(['12.50', '1250', '1.235', '1500.00']);
    expect([toMinor('1500', 'HUF'), toMinor('0.29', 'EUR'), toMinor('1.5', 'JPY')]).toEqual([150000, 29, Number.NaN]);
  });

  it('when an amount is shown, then it reads in the currency, and a card expiry as printed', () => {
    expect(money(1999, 'EUR')).toBe('€19.99');
    expect(money(1999, 'JPY')).toBe('¥1,999');
    // The server's decimals, not ICU's (which gives HUF and AFN none and IQD none).
    expect([money(150000, 'HUF'), money(150000, 'AFN'), money(1500000, 'IQD'), money(1234, 'KWD')].map((shown) => shown.replace(/\u00a0/g, ' '))).toEqual([
      'HUF 1,500.00',
      'AFN 1,500.00',
      'IQD 1,500.000',
      'KWD 1.234',
    ]);
    expect(money(null, 'EUR')).toBe('—');
    expect(expiryOf({ expiry_month: 7, expiry_year: 2031 })).toBe('07/2031');
  });
});

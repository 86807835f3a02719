import { detectScheme } from './card-scheme';

describe('detectScheme', () => {
  it.each([
    ['4242424242424242', 'VISA'],
    ['5555555555554444', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['2720990000000007', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['6445644564456445', 'DISCOVER'],
    ['3566002020360505', 'JCB'],
    ['36227206271667', 'DINERS'],
    ['3056930009020004', 'DINERS'],
    ['6200000000000005', 'UNIONPAY'],
    ['6759649826438453', 'MAESTRO'],
    ['5018000000000009', 'MAESTRO'],
    ['9999999999999995', 'UNKNOWN'],
    ['2721000000000000', 'UNKNOWN'],
  ])('when the number is %s, then the scheme is %s', (pan, scheme) => {
    expect(detectScheme(pan).scheme).toBe(scheme);
  });

  it('when only a prefix is typed, then the brand is already known (for the browser form)', () => {
    expect(detectScheme('37').scheme).toBe('AMEX');
    expect(detectScheme('2221').scheme).toBe('MASTERCARD');
    expect(detectScheme('37').securityCodeLengths).toEqual([4]);
  });
});

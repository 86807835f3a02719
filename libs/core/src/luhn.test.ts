import { isLuhnValid, maskAccountNumber, maskPans } from './luhn';

describe('Luhn and PAN masking', () => {
  it('accepts valid card numbers and rejects a changed digit', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('378282246310005')).toBe(true);
  });

  it('masks to the first six and last four digits', () => {
    expect(maskAccountNumber('4242424242424242')).toBe('424242******4242');
    expect(maskAccountNumber('378282246310005')).toBe('378282*****0005');
  });

  it('masks Luhn-valid runs inside text, with or without separators, and leaves other numbers alone', () => {
    expect(maskPans('card 4242424242424242 ok')).toBe('card 424242******4242 ok');
    expect(maskPans('card 4242 4242 4242 4242')).toBe('card 424242******4242');
    expect(maskPans('order 1234567890123')).toBe('order 1234567890123');
    expect(maskPans('{"n":"5555555555554444"}')).toBe('{"n":"555555******4444"}');
  });
});

import { ManualClock, ValidationError } from '@vaultline/core';
import { validateCard } from './validate-card';

const clock = new ManualClock('2026-05-15T12:00:00.000Z');
const base = { number: '4242424242424242', exp_month: '05', exp_year: '2026', cvc: '123', name: 'Ada' };

function errorOf(input: Record<string, unknown>): ValidationError {
  try {
    validateCard({ ...base, ...input }, clock);
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('expected a validation error');
}

describe('validateCard', () => {
  it('when the card expires at the end of the current month, then it is still valid', () => {
    expect(validateCard(base, clock)).toMatchObject({ expiryMonth: 5, expiryYear: 2026, scheme: 'VISA', maskedAccountNumber: '424242******4242' });
  });

  it('when the expiry month is before the current month of the current year, then it answers card_expired on card.exp_year', () => {
    expect(errorOf({ exp_month: '4' })).toMatchObject({ code: 'card_expired', field: 'card.exp_year' });
  });

  it('when the year has two digits, then it is read as 20YY; "MM/YY" in exp_month is split', () => {
    expect(validateCard({ ...base, exp_year: '31' }, clock).expiryYear).toBe(2031);
    expect(validateCard({ ...base, exp_month: '09/29', exp_year: undefined }, clock)).toMatchObject({ expiryMonth: 9, expiryYear: 2029 });
  });

  it('when the name has extra whitespace, then it is trimmed and collapsed; an empty name becomes null', () => {
    expect(validateCard({ ...base, name: '  Ada \t Lovelace ' }, clock).cardholderName).toBe('Ada Lovelace');
    expect(validateCard({ ...base, name: '   ' }, clock).cardholderName).toBeNull();
  });

  it('when a field is wrong, then the error message never contains the card number', () => {
    for (const input of [{ number: '4242424242424241' }, { exp_month: '0' }, { cvc: '12' }, { exp_year: '1999' }]) {
      const error = errorOf(input);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).not.toContain('4242424242424241');
      expect(error.message).not.toContain('4242424242424242');
    }
  });

  it('when the year is more than 30 years ahead, then it answers invalid_expiry_year', () => {
    expect(errorOf({ exp_year: '2099' })).toMatchObject({ code: 'invalid_expiry_year' });
  });

  it('when the security code is required but missing, then it answers invalid_security_code', () => {
    expect(() => validateCard({ ...base, cvc: '' }, clock, { requireSecurityCode: true })).toThrow(/security code is required/);
  });
});

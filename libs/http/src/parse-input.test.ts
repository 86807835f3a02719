import { z } from 'zod';
import { ValidationError } from '@vaultline/core';
import { parseInput } from './parse-input';
import { listResponse, parsePageQuery } from './pagination';

function failure(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const schema = z.strictObject({
  amount: z.number().int().positive(),
  card: z.object({ number: z.string().regex(/^\d{13,19}$/), exp_month: z.number().int().min(1).max(12) }).optional(),
  currency_code: z.enum(['EUR', 'USD']).optional(),
});

describe('parseInput', () => {
  it('when the input is valid, then the parsed value is returned', () => {
    expect(parseInput(schema, { amount: 100 })).toEqual({ amount: 100 });
  });

  it('when a required field is missing, then the error names it as required', () => {
    const error = failure(() => parseInput(schema, {}));
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.field).toBe('amount');
    expect(error.message).toBe('amount is required.');
  });

  it('when a nested field is invalid, then the field is the dotted path and the value is not echoed', () => {
    const error = failure(() => parseInput(schema, { amount: 1, card: { number: '4242x4242424242', exp_month: 1 } }));
    expect(error.field).toBe('card.number');
    expect(error.message).toContain('card.number');
    expect(error.message).not.toContain('4242x');
  });

  it('when the wrong type, an out-of-range number or an unknown enum value is sent, then the detail says what is expected', () => {
    expect(failure(() => parseInput(schema, { amount: '5' })).message).toBe('amount must be a number.');
    expect(failure(() => parseInput(schema, { amount: 1, card: { number: '4242424242424242', exp_month: 13 } })).message).toContain(
      'card.exp_month is too big',
    );
    const e = failure(() => parseInput(schema, { amount: 1, currency_code: 'GBPX' }));
    expect(e.message).toBe('currency_code must be one of "EUR", "USD".');
    expect(e.message).not.toContain('GBPX');
  });

  it('when an unknown field is sent to a strict schema, then the error names that field', () => {
    const error = failure(() => parseInput(schema, { amount: 1, pan: '4242424242424242' }));
    expect(error.field).toBe('pan');
    expect(error.message).not.toContain('4242');
  });

  it('when a refinement carries its own code, then that code is used', () => {
    const s = z
      .object({ age_ms: z.number() })
      .refine((v) => v.age_ms < 900_000, { message: 'The security code has expired.', path: ['security_code'], params: { code: 'security_code_expired' } });
    const error = failure(() => parseInput(s, { age_ms: 1_000_000 }));
    expect(error.code).toBe('security_code_expired');
    expect(error.field).toBe('security_code');
    expect(error.message).toBe('The security code has expired.');
  });
});

describe('parsePageQuery and listResponse', () => {
  it('when nothing is given, then limit 10 and newest first', () => {
    expect(parsePageQuery({})).toEqual({ limit: 10, order: 'desc' });
  });

  it('when limit, cursor and order are given, then they are used', () => {
    expect(parsePageQuery({ limit: '100', starting_after: '0190a6b2-aaaa-7bbb-8ccc-123456789abc', order: 'asc' })).toEqual({
      limit: 100,
      after: '0190a6b2-aaaa-7bbb-8ccc-123456789abc',
      order: 'asc',
    });
  });

  it('when limit is outside 1–100 or not a number, or the cursor is odd, then 422 names the field', () => {
    for (const limit of ['0', '101', 'ten', '1.5']) expect(failure(() => parsePageQuery({ limit })).field).toBe('limit');
    expect(failure(() => parsePageQuery({ starting_after: '../etc' })).field).toBe('starting_after');
    expect(failure(() => parsePageQuery({ order: 'up' })).field).toBe('order');
    expect(failure(() => parsePageQuery({ limit: ['1', '2'] })).field).toBe('limit');
  });

  it('when a page is mapped, then the list envelope carries data, has_more and next_cursor', () => {
    expect(listResponse({ items: [{ id: 'a', secret: 1 }], has_more: true, next_cursor: 'a' }, (x) => ({ id: x.id }))).toEqual({
      object: 'list',
      data: [{ id: 'a' }],
      has_more: true,
      next_cursor: 'a',
    });
    expect(listResponse({ items: [], has_more: false }, (x) => x).next_cursor).toBeNull();
  });
});

import fc from 'fast-check';
import { checkPlacement } from './card-fields';
import { catalogCardFields } from '../../test/catalog-card-fields';

const ADYEN_V69_PAYMENTS = catalogCardFields('adyen');
const CHECKOUT_PAYMENTS = catalogCardFields('checkout');
import { fillJsonBody, MAX_JSON_DEPTH, parseJsonBody } from './fill-json-body';
import { assertFillable } from './placeholders';
import { BodyTooDeepError } from '@vaultline/core';
import { InvalidForwardBodyError, PlaceholderNotAllowedError, SecurityCodeExpiredError, SecurityCodeUnavailableError } from './forward-errors';
import { aCard } from './test-card';

const card = aCard();
/** Characters that break naive string building: quotes, backslashes, form delimiters, CR/LF, braces, unicode. */
const tricky = fc.constantFrom('"', '\\', '&', '=', '%', '+', '\r', '\n', '{', '}', ' ', 'a', '7', 'é', '💳', '\u2028', '\u0000');

function refusal(action: () => unknown): PlaceholderNotAllowedError | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof PlaceholderNotAllowedError) return error;
    throw error;
  }
  return undefined;
}

describe('JSON body placeholders', () => {
  it('when an Adyen v69 body quotes the placeholders, then the expiry month is the string "03" and the year "2030"', () => {
    const raw =
      '{"paymentMethod":{"type":"scheme","number":"{{account_number}}","expiryMonth":"{{ expiration_month }}","expiryYear":"{{expiration_year }}","cvc":"{{ security_code}}"}}';
    const parsed = parseJsonBody(raw);
    expect(checkPlacement(parsed.uses, ADYEN_V69_PAYMENTS.fields, 'json').sort()).toEqual([
      'account_number',
      'expiration_month',
      'expiration_year',
      'security_code',
    ]);
    expect(JSON.parse(fillJsonBody(parsed, card)).paymentMethod).toEqual({
      type: 'scheme',
      number: '4111111111111111',
      expiryMonth: '03',
      expiryYear: '2030',
      cvc: '737',
    });
  });

  it('when a Checkout.com body has bare placeholders, then expiry month and year become integers', () => {
    const raw =
      '{"source":{"type":"card","number":"{{ account_number }}","expiry_month": {{ expiration_month }},"expiry_year":{{expiration_year}}},"amount":100}';
    const parsed = parseJsonBody(raw);
    checkPlacement(parsed.uses, CHECKOUT_PAYMENTS.fields, 'json');
    const filled = JSON.parse(fillJsonBody(parsed, card));
    expect(filled.source).toEqual({ type: 'card', number: '4111111111111111', expiry_month: 3, expiry_year: 2030 });
    expect(filled.amount).toBe(100);
  });

  it('when the destination wants integer expiry fields, then a quoted whole-value expiry placeholder becomes an integer too', () => {
    const raw = '{"source":{"expiry_month":"{{ expiration_month }}","expiry_year":"{{ expiration_year }}"},"note":"exp"}';
    const filled = JSON.parse(fillJsonBody(parseJsonBody(raw), card, CHECKOUT_PAYMENTS.typing));
    expect(filled).toEqual({ source: { expiry_month: 3, expiry_year: 2030 }, note: 'exp' });
  });

  it('when a bare account number or security code placeholder is used, then it stays a string (no precision loss, leading zeros kept)', () => {
    const filled = JSON.parse(fillJsonBody(parseJsonBody('{"n":{{account_number}},"c":{{security_code}}}'), aCard({ number: '6011000990139424', cvc: '012' })));
    expect(filled).toEqual({ n: '6011000990139424', c: '012' });
  });

  it('when placeholder-like text sits inside a string with escaped quotes, then the scanner does not take it for a bare placeholder', () => {
    const parsed = parseJsonBody('{"a":"say \\"{{ expiration_month }}\\" here","b":[{{expiration_year}}]}');
    expect(parsed.uses).toEqual([
      { field: 'a', path: ['a'], whole: null },
      { field: 'b[0]', path: ['b', 0], whole: 'expiration_year' },
    ]);
  });

  it('when the body is not JSON, then it answers invalid_forward_body', () => {
    expect(() => parseJsonBody('{"a":')).toThrow(InvalidForwardBodyError);
  });

  it('when the security code expired and the body needs it, then assertFillable throws security_code_expired', () => {
    expect(() => assertFillable(['security_code'], aCard({ status: 'expired', cvc: null }))).toThrow(SecurityCodeExpiredError);
    expect(() => assertFillable(['security_code'], aCard({ cvc: null }))).toThrow(SecurityCodeUnavailableError);
    expect(() => assertFillable(['account_number'], aCard({ status: 'expired', cvc: null }))).not.toThrow();
  });

  it('when merchant values hold quotes, backslashes, &, =, %, CR/LF and unicode, then the filled body is valid JSON with every value intact', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: tricky }), (name, merchantValue) => {
        const document = { reference: merchantValue, paymentMethod: { holderName: name, number: '{{ account_number }}', cvc: '{{security_code}}' } };
        const parsed = parseJsonBody(JSON.stringify(document));
        checkPlacement(parsed.uses, ADYEN_V69_PAYMENTS.fields, 'json');
        const filled = JSON.parse(fillJsonBody(parsed, card));
        expect(filled).toEqual({ reference: merchantValue, paymentMethod: { holderName: name, number: '4111111111111111', cvc: '737' } });
      }),
      { numRuns: 300 },
    );
  });

  it('when a placeholder has any text around it, even in a card field, then it is refused with the field named', () => {
    fc.assert(
      fc.property(fc.string({ unit: tricky }), fc.string({ unit: tricky }), fc.constantFrom('number', 'holderName', 'cvc'), (before, after, field) => {
        fc.pre(before.length + after.length > 0);
        const parsed = parseJsonBody(JSON.stringify({ paymentMethod: { [field]: `${before}{{ account_number }}${after}` } }));
        expect(refusal(() => checkPlacement(parsed.uses, ADYEN_V69_PAYMENTS.fields, 'json'))?.field).toBe(`paymentMethod.${field}`);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a 100,000-deep array', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['a 20,000-deep object', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)],
    [`an array one level deeper than ${MAX_JSON_DEPTH}`, '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)],
  ])('when the body is %s, then it answers 422 body_too_deep without overflowing the stack', (_what, raw) => {
    expect(() => parseJsonBody(raw)).toThrow(BodyTooDeepError);
  });

  it(`when the body nests exactly ${MAX_JSON_DEPTH} levels, then it is accepted`, () => {
    const raw = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(fillJsonBody(parseJsonBody(raw), card)).toBe(raw);
  });
});

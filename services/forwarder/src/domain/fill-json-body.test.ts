import fc from 'fast-check';
import { fillJsonBody, parseJsonBody } from './fill-json-body';
import { assertFillable } from './placeholders';
import { SecurityCodeExpiredError, SecurityCodeUnavailableError, InvalidForwardBodyError } from './forward-errors';
import { aCard } from './test-card';

const card = aCard();
/** Characters that break naive string building: quotes, backslashes, form delimiters, CR/LF, braces, unicode. */
const tricky = fc.constantFrom('"', '\\', '&', '=', '%', '+', '\r', '\n', '{', '}', ' ', 'a', '7', 'é', '💳', '\u2028', '\u0000');

describe('JSON body placeholders', () => {
  it('when an Adyen v69 body quotes the placeholders, then the expiry month is the string "03" and the year "2030"', () => {
    const raw = '{"paymentMethod":{"type":"scheme","number":"{{account_number}}","expiryMonth":"{{ expiration_month }}","expiryYear":"{{expiration_year }}","cvc":"{{ security_code}}"}}';
    const filled = JSON.parse(fillJsonBody(parseJsonBody(raw), card));
    expect(filled.paymentMethod).toEqual({ type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' });
  });

  it('when a Checkout.com body has bare placeholders, then expiry month and year become integers', () => {
    const raw = '{"source":{"type":"card","number":"{{ account_number }}","expiry_month": {{ expiration_month }},"expiry_year":{{expiration_year}}},"amount":100}';
    const filled = JSON.parse(fillJsonBody(parseJsonBody(raw), card));
    expect(filled.source).toEqual({ type: 'card', number: '4111111111111111', expiry_month: 3, expiry_year: 2030 });
    expect(filled.amount).toBe(100);
  });

  it('when the destination wants integer expiry fields, then a quoted whole-value expiry placeholder becomes an integer too', () => {
    const raw = '{"expiry_month":"{{ expiration_month }}","expiry_year":"{{ expiration_year }}","note":"exp {{ expiration_month }}/{{ expiration_year }}"}';
    const filled = JSON.parse(fillJsonBody(parseJsonBody(raw), card, 'integer-expiry'));
    expect(filled).toEqual({ expiry_month: 3, expiry_year: 2030, note: 'exp 03/2030' });
  });

  it('when a bare account number or security code placeholder is used, then it stays a string (no precision loss, leading zeros kept)', () => {
    const filled = JSON.parse(fillJsonBody(parseJsonBody('{"n":{{account_number}},"c":{{security_code}}}'), aCard({ number: '6011000990139424', cvc: '012' })));
    expect(filled).toEqual({ n: '6011000990139424', c: '012' });
  });

  it('when placeholder-like text sits inside a string with escaped quotes, then the scanner does not treat it as bare', () => {
    const raw = '{"a":"say \\"{{ expiration_month }}\\" here","b":[{{expiration_year}}]}';
    const filled = JSON.parse(fillJsonBody(parseJsonBody(raw), card));
    expect(filled).toEqual({ a: 'say "03" here', b: [2030] });
  });

  it('when the body lists the placeholders it needs, then they are all reported', () => {
    expect(parseJsonBody('{"a":"{{account_number}}","b":{{security_code}}}').placeholders.sort()).toEqual(['account_number', 'security_code']);
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
        const document = { holderName: name, reference: merchantValue, number: '{{ account_number }}', cvc: `${merchantValue}{{security_code}}` };
        const filled = JSON.parse(fillJsonBody(parseJsonBody(JSON.stringify(document)), card));
        expect(filled).toEqual({ holderName: name, reference: merchantValue, number: '4111111111111111', cvc: `${merchantValue}737` });
      }),
      { numRuns: 300 },
    );
  });
});

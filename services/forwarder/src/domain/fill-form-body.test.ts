import fc from 'fast-check';
import { fillFormBody, parseFormBody } from './fill-form-body';
import { aCard } from './test-card';

const card = aCard();
/** Characters that break naive string building: quotes, backslashes, form delimiters, CR/LF, braces, unicode. */
const tricky = fc.constantFrom('"', '\\', '&', '=', '%', '+', '\r', '\n', '{', '}', ' ', 'a', '7', 'é', '💳', '\u2028', '\u0000');

describe('form body placeholders', () => {
  it('when a Stripe form body carries placeholders, then card fields are filled and the field order and other bytes kept', () => {
    const raw = 'type=card&card[number]={{account_number}}&card%5Bexp_month%5D=%7B%7B%20expiration_month%20%7D%7D&card[exp_year]={{+expiration_year+}}&card[cvc]={{security_code}}&metadata[x]=a%2Bb';
    const filled = fillFormBody(parseFormBody(raw), card);
    expect(filled).toBe('type=card&card[number]=4111111111111111&card%5Bexp_month%5D=03&card[exp_year]=2030&card[cvc]=737&metadata[x]=a%2Bb');
    expect([...new URLSearchParams(filled)]).toEqual([
      ['type', 'card'],
      ['card[number]', '4111111111111111'],
      ['card[exp_month]', '03'],
      ['card[exp_year]', '2030'],
      ['card[cvc]', '737'],
      ['metadata[x]', 'a+b'],
    ]);
  });

  it('when merchant text around a placeholder holds &, =, %, + and CR/LF, then the filled value is URL-encoded and cannot add fields', () => {
    fc.assert(
      fc.property(fc.string({ unit: tricky }), fc.string({ unit: tricky }), (prefix, other) => {
        const raw = new URLSearchParams([
          ['billing_details[name]', `${prefix}{{ account_number }}`],
          ['metadata[note]', other],
        ]).toString();
        const filled = fillFormBody(parseFormBody(raw), card);
        expect([...new URLSearchParams(filled)]).toEqual([
          ['billing_details[name]', `${prefix}4111111111111111`],
          ['metadata[note]', other],
        ]);
      }),
      { numRuns: 300 },
    );
  });
});

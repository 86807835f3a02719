import fc from 'fast-check';
import { checkPlacement } from './card-fields';
import { catalogCardFields } from '../../test/catalog-card-fields';

const STRIPE_PAYMENT_METHODS = catalogCardFields('stripe', 'payment_methods');
import { fillFormBody, parseFormBody } from './fill-form-body';
import { PlaceholderNotAllowedError } from './forward-errors';
import { aCard } from './test-card';

const card = aCard();
/** Characters that break naive string building: quotes, backslashes, form delimiters, CR/LF, braces, unicode. */
const tricky = fc.constantFrom('"', '\\', '&', '=', '%', '+', '\r', '\n', '{', '}', ' ', 'a', '7', 'é', '💳', '\u2028', '\u0000');

describe('form body placeholders', () => {
  it('when a Stripe form body carries placeholders, then card fields are filled and the field order and other bytes kept', () => {
    const raw =
      'type=card&card[number]={{account_number}}&card%5Bexp_month%5D=%7B%7B%20expiration_month%20%7D%7D&card[exp_year]={{+expiration_year+}}&card[cvc]={{security_code}}&metadata[x]=a%2Bb';
    const parsed = parseFormBody(raw);
    expect(checkPlacement(parsed.uses, STRIPE_PAYMENT_METHODS.fields, 'form')).toEqual([
      'account_number',
      'expiration_month',
      'expiration_year',
      'security_code',
    ]);
    const filled = fillFormBody(parsed, card);
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

  it('when merchant text around a placeholder holds &, =, %, + and CR/LF, then the field is refused and names no card data', () => {
    fc.assert(
      fc.property(fc.string({ unit: tricky, minLength: 1 }), fc.string({ unit: tricky }), (prefix, other) => {
        const raw = new URLSearchParams([
          ['card[number]', `${prefix}{{ account_number }}`],
          ['metadata[note]', other],
        ]).toString();
        expect(() => checkPlacement(parseFormBody(raw).uses, STRIPE_PAYMENT_METHODS.fields, 'form')).toThrow(PlaceholderNotAllowedError);
      }),
      { numRuns: 300 },
    );
  });

  it('when merchant fields hold &, =, %, + and CR/LF beside the card fields, then only the card fields change and no field is added', () => {
    fc.assert(
      fc.property(fc.string({ unit: tricky }), (other) => {
        const raw = new URLSearchParams([
          ['card[number]', '{{ account_number }}'],
          ['metadata[note]', other],
        ]).toString();
        const parsed = parseFormBody(raw);
        checkPlacement(parsed.uses, STRIPE_PAYMENT_METHODS.fields, 'form');
        expect([...new URLSearchParams(fillFormBody(parsed, card))]).toEqual([
          ['card[number]', '4111111111111111'],
          ['metadata[note]', other],
        ]);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { isLuhnValid, maskAccountNumber, maskPans } from './luhn';

/** The check digit that makes `body` + digit Luhn-valid. */
function withCheckDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit++) if (isLuhnValid(`${body}${digit}`)) return `${body}${digit}`;
  throw new Error('unreachable');
}

/**
 * The definition maskPans must meet, written the slow and obvious way: in every run of digits joined
 * by at most one space or dash, outside UUIDs, every Luhn-valid window of 13–19 digits keeps at most its first six
 * and last four digits; every other digit of that window becomes '*'.
 */
function referenceMask(text: string): string {
  const out = [...text];
  // UUIDs (8-4-4-4-12 hex digits, not glued to another hex digit) are ids, never card numbers: blanked out of the search.
  const searched = text.replace(/(?<![0-9a-f])[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}(?![0-9a-f])/gi, (uuid) => 'u'.repeat(uuid.length));
  for (const run of searched.matchAll(/\d(?:[ -]?\d)*/g)) {
    const positions = [...run[0]].flatMap((ch, i) => (/\d/.test(ch) ? [run.index + i] : []));
    const digits = positions.map((p) => text[p]).join('');
    for (let start = 0; start < digits.length; start++) {
      for (let length = 13; length <= 19 && start + length <= digits.length; length++) {
        if (!isLuhnValid(digits.slice(start, start + length))) continue;
        for (let k = start + 6; k < start + length - 4; k++) out[positions[k]!] = '*';
      }
    }
  }
  return out.join('');
}

const pan = fc
  .integer({ min: 12, max: 18 })
  .chain((bodyLength) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: bodyLength, maxLength: bodyLength }).map(withCheckDigit));
const noise = fc.string({ unit: fc.constantFrom(...'0123456789 -x"'), maxLength: 12 });
const separated = (digits: string) =>
  fc
    .array(fc.constantFrom('', '', '', ' ', '-'), { minLength: digits.length, maxLength: digits.length })
    .map((seps) => [...digits].map((d, i) => (i === 0 ? d : `${seps[i]}${d}`)).join(''));

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
    expect(maskPans('card 4242 4242 4242 4242')).toBe('card 4242 42** **** 4242');
    expect(maskPans('order 1234567890123')).toBe('order 1234567890123');
    expect(maskPans('{"n":"5555555555554444"}')).toBe('{"n":"555555******4444"}');
  });

  it.each([
    ['a key id whose last groups are digits', 'key 01a224ba-f0c1-757a-a990-620464640970 revoked'],
    ['an id in upper case, after a prefix', 'pay_01A224BA-F0C1-757A-A990-620464640970'],
    ['an all-digit UUID', '12345678-1234-5678-9012-424242424242'],
  ])('when the text holds %s, then the UUID is kept whole although its digits across a dash are Luhn-valid', (_what, text) => {
    expect(maskPans(text)).toBe(text);
  });

  it('when a PAN sits beside an id, then the PAN is masked and the id kept', () => {
    expect(maskPans('4242424242424242 for 01a224ba-f0c1-757a-a990-620464640970')).toBe('424242******4242 for 01a224ba-f0c1-757a-a990-620464640970');
  });

  it.each([
    ['digits attached by a space before it', 'exp 12 4242424242424242', 'exp 12 424242******4242'],
    // Other windows of these runs are Luhn-valid too: their middles are masked as well.
    ['a security code attached after a dash-separated PAN', '4242-4242-4242-4242 123', '4242-42**-****-***2 123'],
    ['digits glued to both ends', '99124000056655665556777', '991240***********556777'],
    ['a PAN followed by the expiry year', '4000056655665556 2030', '400005******5556 2030'],
  ])('when a PAN has %s, then its middle digits are masked', (_what, text, expected) => {
    expect(maskPans(text)).toBe(expected);
  });

  it('when a PAN sits anywhere in a run of other digits and separators, then none of its digits between the first six and the last four stay visible', () => {
    fc.assert(
      fc.property(
        noise,
        pan.chain((digits) => separated(digits).map((text) => ({ digits, text }))),
        noise,
        (before, { digits, text }, after) => {
          const masked = maskPans(`${before}${text}${after}`);
          expect(masked.replace(/[ -]/g, '')).not.toContain(digits);
          // In place: every digit of the PAN after its first six and before its last four is a `*` (a search for
          // the middle digits as a substring would also find them in the visible first six of a PAN like 4920549205008).
          const middle: string[] = [];
          let seen = 0;
          for (let i = 0; i < text.length; i++) {
            if (!/\d/.test(text[i]!)) continue;
            if (seen >= 6 && seen < digits.length - 4) middle.push(masked[before.length + i]!);
            seen++;
          }
          expect(middle.every((char) => char === '*')).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when any text is masked, then the result is exactly the reference definition: only digits change, to *, and nothing Luhn-valid remains', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789 -a'), minLength: 13, maxLength: 80, size: 'max' }), (text) => {
        const masked = maskPans(text);
        expect(masked).toBe(referenceMask(text));
        expect(maskPans(masked)).toBe(masked);
      }),
      { numRuns: 1000 },
    );
  });
});

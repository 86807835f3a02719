/** Card schemes we recognise from the leading digits (BIN ranges current in 2025). */
export const SCHEMES = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'UNIONPAY', 'MAESTRO', 'UNKNOWN'] as const;
export type Scheme = (typeof SCHEMES)[number];

interface SchemeRule {
  scheme: Exclude<Scheme, 'UNKNOWN'>;
  /** Inclusive prefix ranges, compared on the first `length of low` digits. */
  ranges: [string, string][];
  lengths: number[];
  securityCodeLength: number;
}

const range = (low: string, high = low): [string, string] => [low, high];
const between = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Order matters: more specific ranges first (Maestro's 6304/6759 before Discover's 6; UnionPay's 62 is
 * its own scheme; Mastercard's 2-series 2221–2720).
 */
const RULES: SchemeRule[] = [
  { scheme: 'AMEX', ranges: [range('34'), range('37')], lengths: [15], securityCodeLength: 4 },
  {
    scheme: 'MAESTRO',
    ranges: [range('5018'), range('5020'), range('5038'), range('5893'), range('6304'), range('6759'), range('6761', '6763')],
    lengths: between(12, 19),
    securityCodeLength: 3,
  },
  { scheme: 'MASTERCARD', ranges: [range('51', '55'), range('2221', '2720')], lengths: [16], securityCodeLength: 3 },
  { scheme: 'VISA', ranges: [range('4')], lengths: [13, 16, 19], securityCodeLength: 3 },
  { scheme: 'DINERS', ranges: [range('300', '305'), range('3095'), range('36'), range('38', '39')], lengths: between(14, 19), securityCodeLength: 3 },
  { scheme: 'JCB', ranges: [range('3528', '3589')], lengths: between(16, 19), securityCodeLength: 3 },
  { scheme: 'DISCOVER', ranges: [range('6011'), range('644', '649'), range('65')], lengths: between(16, 19), securityCodeLength: 3 },
  { scheme: 'UNIONPAY', ranges: [range('62'), range('81')], lengths: between(16, 19), securityCodeLength: 3 },
];

export interface SchemeInfo {
  scheme: Scheme;
  lengths: number[];
  /** Allowed security-code lengths. */
  securityCodeLengths: number[];
}

const UNKNOWN: SchemeInfo = { scheme: 'UNKNOWN', lengths: between(12, 19), securityCodeLengths: [3, 4] };

/** The security-code lengths of a scheme (a stored card's code entered alone). */
export function securityCodeLengthsOf(scheme: Scheme): number[] {
  const rule = RULES.find((candidate) => candidate.scheme === scheme);
  return rule ? [rule.securityCodeLength] : UNKNOWN.securityCodeLengths;
}

/** Works on a prefix too (the browser form shows the brand while the number is typed). */
export function detectScheme(digits: string): SchemeInfo {
  for (const rule of RULES) {
    for (const [low, high] of rule.ranges) {
      if (digits.length < low.length) continue;
      const prefix = digits.slice(0, low.length);
      if (prefix >= low && prefix <= high) {
        return { scheme: rule.scheme, lengths: rule.lengths, securityCodeLengths: [rule.securityCodeLength] };
      }
    }
  }
  return UNKNOWN;
}

import type { ProcessorAmounts } from '../../domain/processor-port/processor-amounts';

/**
 * Checkout.com's "Format the amount value" (https://www.checkout.com/docs/payments/accept-payments/format-the-amount-value,
 * formerly resources/calculating-the-amount): the full amount for BIF DJF GNF ISK JPY KMF KRW PYG RWF UGX
 * VUV VND XAF XOF XPF; the amount divided by 1000 for BHD IQD JOD KWD LYD OMR TND, whose last digit must
 * always be 0; the amount divided by 100 for every other currency (so CLP, UYI with two decimals, CLF and
 * UYW with two instead of ISO's four). The value must be greater than zero and have at most nine digits.
 */
const FULL_AMOUNT = 'BIF DJF GNF ISK JPY KMF KRW PYG RWF UGX VUV VND XAF XOF XPF'.split(' ');
const DIVIDED_BY_1000 = 'BHD IQD JOD KWD LYD OMR TND'.split(' ');
const LAST_DIGIT_ZERO = 'Checkout.com needs the last digit of amounts divided by 1000 to be 0';

export const checkoutAmounts: ProcessorAmounts = {
  processor: 'Checkout.com',
  // Its two lists as the page gives them; every other currency is divided by 100, which differs from ISO 4217 for CLP, UYI, CLF and UYW.
  exponents: {
    CLP: 2,
    UYI: 2,
    CLF: 2,
    UYW: 2,
    ...Object.fromEntries(FULL_AMOUNT.map((code) => [code, 0])),
    ...Object.fromEntries(DIVIDED_BY_1000.map((code) => [code, 3])),
  },
  steps: Object.fromEntries(DIVIDED_BY_1000.map((code) => [code, { of: 10, rule: LAST_DIGIT_ZERO }])),
  minimumCharges: {},
  maximumValues: { default: 999_999_999, rule: 'Checkout.com takes amount values of at most nine digits' },
};

import type { ProcessorAmounts } from '../../domain/processor-port/processor-amounts';

/**
 * Stripe's currency units (https://docs.stripe.com/currencies): amounts in the currency's minor unit,
 * except its zero-decimal list (BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF, of which
 * MGA has 2 decimals in ISO 4217); its special cases ISK and UGX, zero-decimal for ISO but sent with two
 * decimals that must be 00; three-decimal currencies (BHD JOD KWD OMR TND) with the last digit 0; the
 * minimum charge per settlement currency; at most eight digits (twelve for IDR).
 */
const WHOLE = "must be sent with two decimals that are always 00 (Stripe's special cases: it takes no fractions of the currency)";
const LAST_DIGIT_ZERO = 'Stripe needs the last digit of three-decimal amounts to be 0 (its three-decimal currencies)';

export const stripeAmounts: ProcessorAmounts = {
  processor: 'Stripe',
  exponents: { MGA: 0, ISK: 2, UGX: 2 },
  steps: {
    ISK: { of: 100, rule: `ISK ${WHOLE}` },
    UGX: { of: 100, rule: `UGX ${WHOLE}` },
    BHD: { of: 10, rule: LAST_DIGIT_ZERO },
    JOD: { of: 10, rule: LAST_DIGIT_ZERO },
    KWD: { of: 10, rule: LAST_DIGIT_ZERO },
    OMR: { of: 10, rule: LAST_DIGIT_ZERO },
    TND: { of: 10, rule: LAST_DIGIT_ZERO },
  },
  // "Minimum and maximum charge amounts": for a charge in the account's settlement currency. A charge in
  // another currency must meet the settlement currency's minimum after conversion, which Stripe checks.
  minimumCharges: {
    USD: '0.50',
    AED: '2.00',
    AUD: '0.50',
    BGN: '1.00',
    BRL: '0.50',
    CAD: '0.50',
    CHF: '0.50',
    CZK: '15.00',
    DKK: '2.50',
    EUR: '0.50',
    GBP: '0.30',
    HKD: '4.00',
    HUF: '175.00',
    INR: '0.50',
    JPY: '50',
    MXN: '10.00',
    MYR: '2.00',
    NOK: '3.00',
    NZD: '0.50',
    PLN: '2.00',
    RON: '2.00',
    SEK: '3.00',
    SGD: '0.50',
    THB: '10.00',
  },
  maximumValues: { default: 99_999_999, byCurrency: { IDR: 999_999_999_999 }, rule: 'Stripe takes amount values of at most eight digits (twelve for IDR)' },
};

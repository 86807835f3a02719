import type { ProcessorAmounts } from '../../domain/processor-port/processor-amounts';

/**
 * Adyen's currency codes (https://docs.adyen.com/development-resources/currency-codes): amounts in minor
 * units with the decimals of its table, which "differs from standard" for CLP (2, ISO 0), CVE (0, ISO 2),
 * IDR (0, ISO 2) and ISK (2, ISO 0): "the decimals in the table on this page are leading". No minimum
 * across payment methods is published, and `amount.value` is an int64: the API's own maximum is lower.
 */
export const adyenAmounts: ProcessorAmounts = {
  processor: 'Adyen',
  exponents: { CLP: 2, CVE: 0, IDR: 0, ISK: 2 },
  steps: {},
  minimumCharges: {},
  maximumValues: { default: null, rule: '' },
};

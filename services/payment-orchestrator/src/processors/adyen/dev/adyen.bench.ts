import type { BenchStandIn } from '../../dev/bench-stand-in';
import { startAdyenStandIn } from './adyen.stand-in';

const credentials = {
  api_key: 'AQE_bench_key_value',
  merchant_account: 'BenchECOM',
  hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

/** The payments bench on Adyen: automatic captures made by Adyen itself, confirmed by its signed CAPTURE notification. */
export const benchStandIn: BenchStandIn = {
  credentials,
  start: ({ delayMs }) =>
    startAdyenStandIn({
      apiKey: credentials.api_key,
      merchantAccount: credentials.merchant_account,
      hmacKey: credentials.hmac_key,
      ...(delayMs ? { delayMs } : {}),
    }),
};

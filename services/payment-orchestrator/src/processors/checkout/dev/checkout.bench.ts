import type { BenchStandIn } from '../../dev/bench-stand-in';
import { startCheckoutStandIn } from './checkout.stand-in';

const credentials = { secret_key: 'sk_sbox_bench_key', processing_channel_id: 'pc_bench1', webhook_secret: 'whsec_bench0123456789abcdefghijklmnopq' };

/** The payments bench on Checkout.com: captures settled by its signed payment_captured webhook. */
export const benchStandIn: BenchStandIn = {
  credentials,
  start: ({ delayMs }) =>
    startCheckoutStandIn({
      secretKey: credentials.secret_key,
      processingChannelId: credentials.processing_channel_id,
      webhookSecret: credentials.webhook_secret,
      ...(delayMs ? { delayMs } : {}),
    }),
};

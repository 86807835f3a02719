import { MERCHANT, startOrchestrator, type Harness } from './orchestrator-harness';

export const NOTIFICATION_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const NOTIFICATION_WEBHOOK_SECRET = 'whsec_checkout_secret_10123456789abcde';

/** The orchestrator with one Adyen and one Checkout.com account of MERCHANT, whose notifications the test signs itself. */
export async function startWithNotifyingAccounts(): Promise<{ h: Harness; adyenId: string; checkoutId: string }> {
  const h = await startOrchestrator();
  const adyenId = (
    await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'Adyen',
      credentials: { api_key: 'AQE_key_value_1234', merchant_account: 'ShopECOM', hmac_key: NOTIFICATION_HMAC_KEY },
    })
  ).body.id;
  const checkoutId = (
    await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'checkout',
      name: 'Checkout.com',
      credentials: { secret_key: 'sk_sbox_abcdefghijkl', processing_channel_id: 'pc_abc123', webhook_secret: NOTIFICATION_WEBHOOK_SECRET },
    })
  ).body.id;
  return { h, adyenId, checkoutId };
}

import type { ProcessorNotifications } from '../processor-plugin';
import { jsonBody } from '../processor-wire';
import type { CheckoutCredentials } from './checkout.account';
import { checkoutDisputeSignal } from './checkout.dispute';
import { fromCheckoutWebhook, verifyCheckoutWebhook } from './checkout.webhook';

/** Checkout.com's webhooks: the raw body signed (Cko-Signature) with the account's webhook secret; a forged one is answered 401. */
export const checkoutNotifications: ProcessorNotifications = {
  headers: ['cko-signature'],
  verify(credentials, rawBody, headers) {
    const body = jsonBody(rawBody) as { type?: unknown; data?: { id?: unknown } } | undefined;
    if (!body || typeof body !== 'object') return null;
    if (!verifyCheckoutWebhook(rawBody, headers['cko-signature'], (credentials as CheckoutCredentials).webhook_secret)) {
      return [
        {
          verified: false,
          event_name: typeof body.type === 'string' ? body.type : 'unknown',
          processor_reference: typeof body.data?.id === 'string' ? body.data.id : null,
        },
      ];
    }
    const dispute = checkoutDisputeSignal(body);
    if (dispute)
      return [
        {
          verified: true,
          event: {
            kind: 'dispute',
            dedupe_key: `checkout:${String((body as { id?: unknown }).id)}`,
            payment_reference: dispute.payment_reference,
            processor_reference: dispute.processor_reference,
            dispute,
          },
        },
      ];
    const event = fromCheckoutWebhook(body);
    return event ? [{ verified: true, event }] : null;
  },
  answer(receipt) {
    if (receipt.refused > 0) return { refused: 'invalid_signature', detail: "The Cko-Signature does not verify with the account's webhook secret." };
    if (receipt.malformed) return { refused: 'invalid_notification', detail: 'The body is not a Checkout.com webhook.' };
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ received: true }) };
  },
};

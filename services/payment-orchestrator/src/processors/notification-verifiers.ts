import type { NotificationVerifier, VerifiedEvent, VerifiedItem } from '../domain/receive-processor-notification';
import type { AdyenCredentials } from './adyen/adyen.account';
import { adyenDisputeSignal } from './adyen/adyen.dispute';
import { fromAdyenNotificationItem, parseAdyenNotification, verifyAdyenItem, type AdyenNotificationItem } from './adyen/adyen.notification';
import type { CheckoutCredentials } from './checkout/checkout.account';
import { checkoutDisputeSignal } from './checkout/checkout.dispute';
import { fromCheckoutWebhook, verifyCheckoutWebhook } from './checkout/checkout.webhook';

function json(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A dispute notification becomes a `dispute` event carrying its signal; every other item maps as before. */
function adyenEvent(item: AdyenNotificationItem): VerifiedEvent {
  const dispute = adyenDisputeSignal(item);
  if (!dispute) return fromAdyenNotificationItem(item);
  return { kind: 'dispute', dedupe_key: `adyen:${item.pspReference}:${item.eventCode}:${item.success}`, payment_reference: item.merchantReference, processor_reference: item.pspReference, dispute };
}

/** Adyen signs each item of a standard notification with the account's HMAC key. */
const adyen: NotificationVerifier = (credentials, rawBody) => {
  const items = parseAdyenNotification(json(rawBody));
  if (!items) return null;
  const { hmac_key } = credentials as AdyenCredentials;
  return items.map((item): VerifiedItem => (verifyAdyenItem(item, hmac_key) ? { verified: true, event: adyenEvent(item) } : { verified: false, event_name: item.eventCode, processor_reference: item.pspReference }));
};

/** Checkout.com signs the raw body (Cko-Signature) with the account's webhook secret. */
const checkout: NotificationVerifier = (credentials, rawBody, headers) => {
  const body = json(rawBody) as { type?: unknown; data?: { id?: unknown } } | undefined;
  if (!body || typeof body !== 'object') return null;
  if (!verifyCheckoutWebhook(rawBody, headers['cko-signature'], (credentials as CheckoutCredentials).webhook_secret)) {
    return [{ verified: false, event_name: typeof body.type === 'string' ? body.type : 'unknown', processor_reference: typeof body.data?.id === 'string' ? body.data.id : null }];
  }
  const dispute = checkoutDisputeSignal(body);
  if (dispute) return [{ verified: true, event: { kind: 'dispute', dedupe_key: `checkout:${String((body as { id?: unknown }).id)}`, payment_reference: dispute.payment_reference, processor_reference: dispute.processor_reference, dispute } }];
  const event = fromCheckoutWebhook(body);
  return event ? [{ verified: true, event }] : null;
};

export const notificationVerifiers = { adyen, checkout };

import type { VerifiedItem } from '../../domain/processor-notifications/receive-processor-notification';
import type { ProcessorNotifications } from '../processor-plugin';
import { field, jsonBody, text } from '../processor-wire';
import type { StripeCredentials } from './stripe.account';
import { fromStripeEvent, verifyStripeSignature } from './stripe.webhook';

/** Stripe's webhooks on the notification route: Stripe-Signature checked with the account's signing secret; a forged or stale one is 401. */
export const stripeNotifications: ProcessorNotifications = {
  headers: ['stripe-signature'],
  verify(credentials, rawBody, headers, now) {
    const body = jsonBody(rawBody);
    if (!body || typeof body !== 'object') return null;
    if (!verifyStripeSignature(rawBody, headers['stripe-signature'], (credentials as StripeCredentials).webhook_secret, now)) {
      return [
        { verified: false, event_name: text(field(body, 'type')) ?? 'unknown', processor_reference: text(field(field(field(body, 'data'), 'object'), 'id')) },
      ];
    }
    return fromStripeEvent(body)?.map((event): VerifiedItem => ({ verified: true, event })) ?? null;
  },
  answer(receipt) {
    if (receipt.refused > 0)
      return {
        refused: 'invalid_signature',
        detail: "The Stripe-Signature does not verify with the account's webhook signing secret (or its timestamp is outside the tolerance).",
      };
    if (receipt.malformed) return { refused: 'invalid_notification', detail: 'The body is not a Stripe event.' };
    return { status: 200, contentType: 'application/json', body: JSON.stringify({ received: true }) };
  },
};

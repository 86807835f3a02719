import type { VerifiedEvent, VerifiedItem } from '../../domain/processor-notifications/receive-processor-notification';
import type { ProcessorNotifications } from '../processor-plugin';
import { jsonBody } from '../processor-wire';
import type { AdyenCredentials } from './adyen.account';
import { adyenDisputeSignal, adyenFraudWarningSignal } from './adyen.dispute';
import {
  ADYEN_NOTIFICATION_ACCEPTED,
  fromAdyenNotificationItem,
  parseAdyenNotification,
  verifyAdyenItem,
  type AdyenNotificationItem,
} from './adyen.notification';

/** A dispute notification becomes a `dispute` event carrying its signal, a fraud report an `early_fraud_warning`; every other item maps as before. */
function adyenEvent(item: AdyenNotificationItem): VerifiedEvent {
  const dedupe_key = `adyen:${item.pspReference}:${item.eventCode}:${item.success}`;
  const warning = adyenFraudWarningSignal(item);
  if (warning)
    return {
      kind: 'early_fraud_warning',
      dedupe_key,
      payment_reference: item.merchantReference,
      processor_reference: item.pspReference,
      early_fraud_warning: warning,
    };
  const dispute = adyenDisputeSignal(item);
  if (!dispute) return fromAdyenNotificationItem(item);
  return { kind: 'dispute', dedupe_key, payment_reference: item.merchantReference, processor_reference: item.pspReference, dispute };
}

/**
 * Adyen's standard notifications: each item signed with the account's HMAC key (no header). Adyen retries
 * until it reads `[accepted]`; items whose signature fails are counted, not stored, and never retried into
 * acceptance, so the body is accepted all the same.
 */
export const adyenNotifications: ProcessorNotifications = {
  headers: [],
  verify(credentials, rawBody) {
    const items = parseAdyenNotification(jsonBody(rawBody));
    if (!items) return null;
    const { hmac_key } = credentials as AdyenCredentials;
    return items.map((item): VerifiedItem =>
      verifyAdyenItem(item, hmac_key)
        ? { verified: true, event: adyenEvent(item) }
        : { verified: false, event_name: item.eventCode, processor_reference: item.pspReference },
    );
  },
  answer(receipt) {
    if (receipt.malformed) return { refused: 'invalid_notification', detail: 'The body is not an Adyen standard notification.' };
    return { status: 200, contentType: 'text/plain', body: ADYEN_NOTIFICATION_ACCEPTED };
  },
};

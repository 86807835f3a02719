import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProcessorNotificationEvent } from '../processor-wire';
import { fromProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { adyenAmounts } from './adyen.amounts';
import { adyenFailureReason } from './adyen.mapper';

/** An item's amount (Adyen's units) in ISO minor units: the one conversion of every notification (adyen.amounts.ts). */
export function adyenItemAmount(item: Pick<AdyenNotificationItem, 'amount'>): number {
  return fromProcessorAmount(adyenAmounts, item.amount.value, item.amount.currency);
}

/** One NotificationRequestItem of Adyen's standard notification (the fields we read and sign over). */
const itemSchema = z.object({
  additionalData: z.record(z.string(), z.unknown()).optional(),
  amount: z.object({ value: z.number().int(), currency: z.string() }),
  eventCode: z.string().min(1),
  merchantAccountCode: z.string(),
  merchantReference: z.string(),
  originalReference: z.string().optional(),
  pspReference: z.string().min(1),
  reason: z.string().optional(),
  success: z.enum(['true', 'false']),
});

export type AdyenNotificationItem = z.infer<typeof itemSchema>;

const notificationSchema = z.object({
  live: z.enum(['true', 'false']),
  notificationItems: z.array(z.object({ NotificationRequestItem: itemSchema })).min(1),
});

/** The items of a standard notification; null when the body is not one (answered 400, nothing moves). */
export function parseAdyenNotification(body: unknown): AdyenNotificationItem[] | null {
  const parsed = notificationSchema.safeParse(body);
  return parsed.success ? parsed.data.notificationItems.map((entry) => entry.NotificationRequestItem) : null;
}

/** Adyen's signing string: eight fields in this order, empty ones as '', joined by ':'. */
export function adyenSigningString(item: AdyenNotificationItem): string {
  return [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
}

/** HMAC-SHA256 with the hex-decoded key, base64: how Adyen signs each item (and how its stand-in does). */
export function signAdyenItem(item: AdyenNotificationItem, hmacKeyHex: string): string {
  return createHmac('sha256', Buffer.from(hmacKeyHex, 'hex')).update(adyenSigningString(item), 'utf8').digest('base64');
}

/** Whether the item's `additionalData.hmacSignature` is Adyen's signature with this key (constant-time compare). */
export function verifyAdyenItem(item: AdyenNotificationItem, hmacKeyHex: string): boolean {
  const given = item.additionalData?.hmacSignature;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(signAdyenItem(item, hmacKeyHex), 'base64');
  const actual = Buffer.from(given, 'base64');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A verified item → a normalised event. An AUTHORISATION names the payment by its own pspReference, a
 * CAPTURE by the original one (its own pspReference is the capture's). The dedupe key is Adyen's own
 * identity of an event (pspReference, eventCode, success), the same on every redelivery.
 */
export function fromAdyenNotificationItem(item: AdyenNotificationItem): ProcessorNotificationEvent {
  const dedupe_key = `adyen:${item.pspReference}:${item.eventCode}:${item.success}`;
  const success = item.success === 'true';
  switch (item.eventCode) {
    case 'AUTHORISATION':
      return success
        ? { kind: 'authorization_succeeded', dedupe_key, payment_reference: item.merchantReference, processor_reference: item.pspReference }
        : {
            kind: 'authorization_failed',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.pspReference,
            failure_reason: adyenFailureReason(item.reason),
          };
    case 'CAPTURE':
      return success
        ? {
            kind: 'capture_succeeded',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
            amount: adyenItemAmount(item),
          }
        : {
            kind: 'capture_failed',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
            failure_reason: 'capture_failed',
          };
    case 'CAPTURE_FAILED':
      return {
        kind: 'capture_failed',
        dedupe_key,
        payment_reference: item.merchantReference,
        processor_reference: item.originalReference ?? '',
        capture_reference: item.pspReference,
        failure_reason: 'capture_failed',
      };
    // A refund names the refund by merchantReference (the refund id we sent) and by its own pspReference.
    case 'REFUND':
      return success
        ? {
            kind: 'refund_succeeded',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
            amount: adyenItemAmount(item),
          }
        : {
            kind: 'refund_failed',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
            failure_reason: 'refund_failed',
          };
    case 'REFUND_FAILED':
      return {
        kind: 'refund_failed',
        dedupe_key,
        payment_reference: item.merchantReference,
        processor_reference: item.originalReference ?? '',
        capture_reference: item.pspReference,
        failure_reason: 'refund_failed',
      };
    case 'REFUNDED_REVERSED':
      return {
        kind: 'refund_failed',
        dedupe_key,
        payment_reference: item.merchantReference,
        processor_reference: item.originalReference ?? '',
        capture_reference: item.pspReference,
        failure_reason: 'refund_reversed',
      };
    // A cancel names the payment (our reference) and the authorisation it released (originalReference).
    case 'CANCELLATION':
      return success
        ? {
            kind: 'void_succeeded',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
          }
        : {
            kind: 'void_failed',
            dedupe_key,
            payment_reference: item.merchantReference,
            processor_reference: item.originalReference ?? '',
            capture_reference: item.pspReference,
            failure_reason: 'void_failed',
          };
    default:
      return { kind: 'ignored', dedupe_key, event_type: item.eventCode };
  }
}

/** What Adyen must read back, or it delivers the notification again. */
export const ADYEN_NOTIFICATION_ACCEPTED = '[accepted]';

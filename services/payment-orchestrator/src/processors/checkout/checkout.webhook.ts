import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProcessorNotificationEvent } from '../processor-wire';
import { fromProcessorAmount } from '../../domain/processor-port/processor-amounts';
import { checkoutAmounts } from './checkout.amounts';
import { checkoutFailureReason } from './checkout.mapper';

/** A webhook's amount (Checkout.com's units, with its currency) in ISO minor units: the one conversion of every webhook; null without both. */
function checkoutWebhookAmount(data: { amount?: number; currency?: string }): number | null {
  const currency = data.currency?.toUpperCase();
  return data.amount !== undefined && currency ? fromProcessorAmount(checkoutAmounts, data.amount, currency) : null;
}

/** Cko-Signature: HMAC-SHA256 of the raw body with the webhook secret, hex (how Checkout.com signs, and its stand-in). */
export function signCheckoutWebhook(rawBody: Buffer | string, webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

/** Over the raw bytes as received: a re-serialised body would not verify. Constant-time compare. */
export function verifyCheckoutWebhook(rawBody: Buffer | string, signature: string | undefined, webhookSecret: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signature.toLowerCase(), 'hex'), Buffer.from(signCheckoutWebhook(rawBody, webhookSecret), 'hex'));
}

const webhookSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({
    id: z.string().min(1),
    action_id: z.string().optional(),
    reference: z.string().optional(),
    amount: z.number().int().optional(),
    currency: z.string().optional(),
    response_code: z.string().optional(),
  }),
});

/** A verified webhook body → a normalised event; null when it is not a webhook (answered 400). The event id dedupes redeliveries. */
export function fromCheckoutWebhook(body: unknown): ProcessorNotificationEvent | null {
  const parsed = webhookSchema.safeParse(body);
  if (!parsed.success) return null;
  const { id, type, data } = parsed.data;
  const dedupe_key = `checkout:${id}`;
  const payment_reference = data.reference ?? '';
  switch (type) {
    case 'payment_approved':
      return { kind: 'authorization_succeeded', dedupe_key, payment_reference, processor_reference: data.id };
    case 'payment_declined':
      return {
        kind: 'authorization_failed',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        failure_reason: checkoutFailureReason(data.response_code),
      };
    // The consumer failed the 3-D Secure challenge (response code 20151): the payment is declined without an authorization.
    case 'payment_authentication_failed':
      return { kind: 'authorization_failed', dedupe_key, payment_reference, processor_reference: data.id, failure_reason: 'authentication_failed' };
    case 'payment_captured':
      return {
        kind: 'capture_succeeded',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        capture_reference: data.action_id ?? null,
        amount: checkoutWebhookAmount(data),
      };
    case 'payment_capture_declined':
      return {
        kind: 'capture_failed',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        capture_reference: data.action_id ?? null,
        failure_reason: 'capture_failed',
      };
    // A refund's action_id is the one its 202 answer gave (the refund's processor reference).
    case 'payment_refunded':
      return {
        kind: 'refund_succeeded',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        capture_reference: data.action_id ?? null,
        amount: checkoutWebhookAmount(data),
      };
    case 'payment_refund_declined':
      return {
        kind: 'refund_failed',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        capture_reference: data.action_id ?? null,
        failure_reason: 'refund_failed',
      };
    case 'payment_voided':
      return { kind: 'void_succeeded', dedupe_key, payment_reference, processor_reference: data.id, capture_reference: data.action_id ?? null };
    case 'payment_void_declined':
      return {
        kind: 'void_failed',
        dedupe_key,
        payment_reference,
        processor_reference: data.id,
        capture_reference: data.action_id ?? null,
        failure_reason: 'void_failed',
      };
    default:
      return { kind: 'ignored', dedupe_key, event_type: type };
  }
}

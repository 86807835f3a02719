import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VerifiedEvent } from '../../domain/processor-notifications/receive-processor-notification';
import { field, text } from '../processor-wire';
import { stripeDisputeSignal, stripeFraudWarningSignal } from './stripe.dispute';
import { stripeFailureReason } from './stripe.mapper';

/**
 * Stripe's webhooks (https://docs.stripe.com/webhooks/signatures): `Stripe-Signature: t=<unix seconds>,
 * v1=<hex>[,v1=<hex>…]`, each v1 the HMAC-SHA256 of `<t>.<raw body>` with an endpoint secret. While a
 * secret rotates Stripe signs with the old and the new one, so any v1 may match. A timestamp further than
 * the tolerance from now (Stripe's libraries: 300 s) is refused, so a captured delivery cannot be replayed.
 */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export function signStripePayload(rawBody: Buffer | string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header's timestamp and v1 signatures (other schemes, v0 among them, are ignored). */
export function parseStripeSignature(header: string | undefined): { timestamp: number | null; signatures: string[] } {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  return {
    timestamp: t && /^\d{1,12}$/.test(t) ? Number(t) : null,
    signatures: parts.filter(([key, value]) => key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)).map(([, value]) => value!),
  };
}

/** Over the raw bytes as received (a re-serialised body would not verify); constant-time compare of each v1. */
export function verifyStripeSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  now: Date,
  toleranceSeconds = STRIPE_SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const { timestamp, signatures } = parseStripeSignature(header);
  if (timestamp === null || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signStripePayload(rawBody, secret, timestamp), 'hex');
  // Every candidate is compared (no early exit): the time taken does not say which one matched.
  return signatures.map((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected)).reduce((any, match) => any || match, false);
}

const refundEvent = (dedupe_key: string, refund: unknown): VerifiedEvent => {
  const status = field(refund, 'status');
  const base = {
    dedupe_key,
    payment_reference: text(field(field(refund, 'metadata'), 'refund_id')) ?? '',
    processor_reference: text(field(refund, 'payment_intent')) ?? '',
    capture_reference: text(field(refund, 'id')),
  };
  if (status === 'succeeded') return { kind: 'refund_succeeded', ...base };
  if (status === 'failed' || status === 'canceled') return { kind: 'refund_failed', ...base, failure_reason: 'refund_failed' };
  return { kind: 'ignored', dedupe_key };
};

/**
 * A verified event body → the engine's events (pure); null when the body is not a Stripe event (400).
 * `metadata[payment_id]` names our payment on PaymentIntent events (and on the charges Stripe copies it to),
 * `metadata[refund_id]` our refund. The objects have the shapes of STRIPE_API_VERSION (the endpoint is
 * created with it): a charge.refunded Charge embeds no refunds (since 2022-11-15), so refunds settle by their
 * own events (charge.refund.updated, refund.updated) or by asking Stripe, never by charge.refunded.
 */
export function fromStripeEvent(body: unknown): VerifiedEvent[] | null {
  const id = text(field(body, 'id'));
  const type = text(field(body, 'type'));
  const object = field(field(body, 'data'), 'object');
  if (!id || !type || !object || typeof object !== 'object') return null;
  const dedupe_key = `stripe:${id}`;
  const intentId = text(field(object, 'id')) ?? '';
  const paymentId = text(field(field(object, 'metadata'), 'payment_id')) ?? '';
  switch (type) {
    case 'payment_intent.succeeded':
      return [{ kind: 'capture_succeeded', dedupe_key, payment_reference: paymentId, processor_reference: intentId, capture_reference: intentId }];
    // A charge captured after its authorization (manual capture, or each capture of a multicapture): names its PaymentIntent.
    case 'charge.captured': {
      const chargeIntent = text(field(object, 'payment_intent')) ?? '';
      return [{ kind: 'capture_succeeded', dedupe_key, payment_reference: paymentId, processor_reference: chargeIntent, capture_reference: intentId }];
    }
    case 'payment_intent.amount_capturable_updated':
      return [{ kind: 'authorization_succeeded', dedupe_key, payment_reference: paymentId, processor_reference: intentId }];
    case 'payment_intent.payment_failed':
      return [
        {
          kind: 'authorization_failed',
          dedupe_key,
          payment_reference: paymentId,
          processor_reference: intentId,
          failure_reason: stripeFailureReason(field(object, 'last_payment_error')),
        },
      ];
    case 'payment_intent.canceled':
      return [{ kind: 'void_succeeded', dedupe_key, payment_reference: paymentId, processor_reference: intentId, capture_reference: intentId }];
    case 'charge.refund.updated':
    case 'refund.updated':
      return [refundEvent(dedupe_key, object)];
    // No refunds in it at the pinned version: what it says comes again in each refund's own event.
    case 'charge.refunded':
      return [{ kind: 'ignored', dedupe_key }];
    case 'radar.early_fraud_warning.created':
    case 'radar.early_fraud_warning.updated': {
      const warning = stripeFraudWarningSignal(type, object);
      return [
        warning
          ? {
              kind: 'early_fraud_warning',
              dedupe_key,
              payment_reference: warning.payment_reference,
              processor_reference: warning.processor_reference,
              early_fraud_warning: warning,
            }
          : { kind: 'ignored', dedupe_key },
      ];
    }
    default: {
      const dispute = stripeDisputeSignal(type, object);
      return [
        dispute
          ? { kind: 'dispute', dedupe_key, payment_reference: dispute.payment_reference, processor_reference: dispute.processor_reference, dispute }
          : { kind: 'ignored', dedupe_key },
      ];
    }
  }
}

import { createHmac } from 'node:crypto';
import { stripeNotifications } from './stripe.notifications';
import { fromStripeEvent, parseStripeSignature, signStripePayload, STRIPE_SIGNATURE_TOLERANCE_SECONDS, verifyStripeSignature } from './stripe.webhook';

/*
 * Pinned against Stripe's references:
 * - Check the webhook signatures, https://docs.stripe.com/webhooks/signatures — the Stripe-Signature
 *   header `t=<timestamp>,v1=<signature>` (other schemes such as v0 are ignored), the signed payload
 *   `<t>.<raw body>`, HMAC-SHA256 with the endpoint's secret, compared in constant time; several v1 during
 *   a secret's rotation (any may match); a tolerance on the timestamp against replays.
 * - The tolerance Stripe's own libraries default to: 300 s (stripe-node, Webhook.DEFAULT_TOLERANCE,
 *   https://app.unpkg.com/stripe@22.0.0/files/cjs/Webhooks.js; stripe-go DefaultTolerance 300 * time.Second).
 * - Event types, https://docs.stripe.com/api/events/types — payment_intent.succeeded,
 *   payment_intent.payment_failed, payment_intent.amount_capturable_updated, payment_intent.canceled,
 *   charge.refunded and charge.captured (data.object a Charge), charge.refund.updated and refund.updated (a Refund), charge.dispute.created /
 *   .updated / .closed / .funds_withdrawn / .funds_reinstated (a Dispute).
 * - API versions, https://docs.stripe.com/upgrades#2022-11-15 — from 2022-11-15 a Charge no longer embeds
 *   `refunds` (expandable only), so charge.refunded tells no refund's status; stripe-node v16.12.0 (API
 *   2024-06-20, the pinned version) types Charge.refunds as optional and lists the webhook events
 *   charge.captured, charge.refund.updated, refund.created and refund.updated (WebhookEndpointsResource.d.ts).
 * - The Dispute, https://docs.stripe.com/api/disputes/object — status warning_needs_response,
 *   warning_under_review, warning_closed, needs_response, under_review, won, lost (stripe-go's dispute
 *   constants, https://pkg.go.dev/github.com/fdelbos/stripe-go/dispute; stripe_api_client's Dispute.status,
 *   which adds prevented), reason fraudulent, product_not_received, …, payment_intent.
 */

const SECRET = 'whsec_webhookTestSecret';
const NOW = new Date('2026-11-26T10:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);
const intent = {
  id: 'pi_3MtwBw',
  object: 'payment_intent',
  amount: 1250,
  currency: 'eur',
  metadata: { payment_id: '01a208ee-5f6c-74c8-b99c-a50679101e09' },
  last_payment_error: null,
};

describe('Stripe-Signature verification', () => {
  const raw = '{"id":"evt_1","type":"payment_intent.succeeded"}';
  const header = (t: number, ...secrets: string[]) => [`t=${t}`, ...secrets.map((secret) => `v1=${signStripePayload(raw, secret, t)}`)].join(',');

  it('when the header is t=…,v1=… signed over "<t>.<raw body>" with the endpoint secret, then it verifies', () => {
    expect(signStripePayload(raw, SECRET, T)).toBe(createHmac('sha256', SECRET).update(`${T}.${raw}`).digest('hex'));
    expect(verifyStripeSignature(raw, header(T, SECRET), SECRET, NOW)).toBe(true);
  });

  it('when the secret rotates and Stripe signs with the old and the new secret, then either v1 matching verifies (in any order)', () => {
    expect(verifyStripeSignature(raw, header(T, 'whsec_previousSecret', SECRET), SECRET, NOW)).toBe(true);
    expect(verifyStripeSignature(raw, header(T, SECRET, 'whsec_previousSecret'), SECRET, NOW)).toBe(true);
    expect(verifyStripeSignature(raw, header(T, 'whsec_previousSecret', 'whsec_other'), SECRET, NOW)).toBe(false);
  });

  it.each([
    ['older than the tolerance', T - STRIPE_SIGNATURE_TOLERANCE_SECONDS - 1, false],
    ['at the tolerance', T - STRIPE_SIGNATURE_TOLERANCE_SECONDS, true],
    ['ahead by more than the tolerance', T + STRIPE_SIGNATURE_TOLERANCE_SECONDS + 1, false],
  ])('when the signed timestamp is %s (300 s), then verification is %s', (_what, t, expected) => {
    expect(verifyStripeSignature(raw, header(t, SECRET), SECRET, NOW)).toBe(expected);
  });

  it.each([
    ['no header', undefined],
    ['no timestamp', `v1=${signStripePayload(raw, SECRET, T)}`],
    ['only a v0 signature', `t=${T},v0=${signStripePayload(raw, SECRET, T)}`],
    ['a signature of another body', `t=${T},v1=${signStripePayload('{"id":"evt_2"}', SECRET, T)}`],
    ['a signature that is not hex', `t=${T},v1=zz${'0'.repeat(62)}`],
    ['a timestamp that is not a number', `t=now,v1=${signStripePayload(raw, SECRET, T)}`],
  ])('when the header has %s, then it does not verify', (_what, value) => {
    expect(verifyStripeSignature(raw, value, SECRET, NOW)).toBe(false);
  });

  it('when the body is re-serialised (a space added), then the signature of the raw bytes no longer matches', () => {
    expect(verifyStripeSignature(raw.replace(':', ': '), header(T, SECRET), SECRET, NOW)).toBe(false);
  });

  it('when the header is parsed, then it keeps the timestamp and every v1, ignoring other schemes', () => {
    expect(parseStripeSignature(`t=${T},v1=${'a'.repeat(64)},v0=${'b'.repeat(64)},v1=${'c'.repeat(64)}`)).toEqual({
      timestamp: T,
      signatures: ['a'.repeat(64), 'c'.repeat(64)],
    });
  });
});

describe("Stripe events → the engine's events", () => {
  const event = (type: string, object: unknown) => ({ id: 'evt_1NG8Du2eZvKYlo2CUI79vXWy', object: 'event', type, data: { object } });

  it('when payment_intent.succeeded arrives, then it is the capture succeeding, naming our payment by metadata[payment_id] and the PaymentIntent as both references', () => {
    expect(fromStripeEvent(event('payment_intent.succeeded', intent))).toEqual([
      {
        kind: 'capture_succeeded',
        dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy',
        payment_reference: intent.metadata.payment_id,
        processor_reference: 'pi_3MtwBw',
        capture_reference: 'pi_3MtwBw',
      },
    ]);
  });

  it('when payment_intent.payment_failed arrives, then it is the authorization failing with the decline in our words; amount_capturable_updated is the authorization succeeding; canceled the void', () => {
    expect(
      fromStripeEvent(event('payment_intent.payment_failed', { ...intent, last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' } })),
    ).toMatchObject([{ kind: 'authorization_failed', failure_reason: 'insufficient_funds', processor_reference: 'pi_3MtwBw' }]);
    expect(fromStripeEvent(event('payment_intent.amount_capturable_updated', intent))).toMatchObject([
      { kind: 'authorization_succeeded', payment_reference: intent.metadata.payment_id },
    ]);
    expect(fromStripeEvent(event('payment_intent.canceled', intent))).toMatchObject([
      { kind: 'void_succeeded', processor_reference: 'pi_3MtwBw', capture_reference: 'pi_3MtwBw' },
    ]);
  });

  it('when charge.refunded arrives (at the pinned version its Charge embeds no refunds, since 2022-11-15), then it moves nothing: each refund settles by its own event or by asking Stripe', () => {
    const charge = { id: 'ch_1', object: 'charge', payment_intent: 'pi_3MtwBw', amount_refunded: 500, refunded: false };
    expect(fromStripeEvent(event('charge.refunded', charge))).toEqual([{ kind: 'ignored', dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy' }]);
  });

  it('when charge.captured arrives (a Charge captured after its authorization), then it is a capture success naming the PaymentIntent, found as payment_intent.succeeded is', () => {
    const charge = { id: 'ch_1', object: 'charge', payment_intent: 'pi_3MtwBw', captured: true, amount_captured: 400, metadata: intent.metadata };
    expect(fromStripeEvent(event('charge.captured', charge))).toEqual([
      {
        kind: 'capture_succeeded',
        dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy',
        payment_reference: intent.metadata.payment_id,
        processor_reference: 'pi_3MtwBw',
        capture_reference: 'ch_1',
      },
    ]);
  });

  it('when charge.refund.updated says a pending refund succeeded, then it settles it; a pending one is ignored', () => {
    expect(
      fromStripeEvent(
        event('charge.refund.updated', { id: 're_9', object: 'refund', status: 'succeeded', payment_intent: 'pi_3MtwBw', metadata: { refund_id: 'r9' } }),
      ),
    ).toMatchObject([{ kind: 'refund_succeeded', capture_reference: 're_9', payment_reference: 'r9' }]);
    expect(fromStripeEvent(event('charge.refund.updated', { id: 're_9', object: 'refund', status: 'pending', metadata: {} }))).toMatchObject([
      { kind: 'ignored' },
    ]);
  });

  it.each([
    ['charge.dispute.created', 'needs_response', 'needs_response', 2, {}],
    ['charge.dispute.updated', 'under_review', 'under_review', 2, {}],
    ['charge.dispute.closed', 'won', 'won', 2, {}],
    ['charge.dispute.closed', 'lost', 'lost', 2, {}],
    ['charge.dispute.created', 'warning_needs_response', 'needs_response', 1, { inquiry: true }],
    ['charge.dispute.closed', 'warning_closed', 'won', 1, { inquiry: true }],
  ])(
    'when %s arrives with status %s, then it is a dispute signal %s at stage %i, naming the PaymentIntent (an inquiry for warning_ statuses)',
    (type, status, expected, stage, inquiry) => {
      const dispute = {
        id: 'dp_1MtwBw',
        object: 'dispute',
        amount: 1250,
        currency: 'eur',
        payment_intent: 'pi_3MtwBw',
        reason: 'product_not_received',
        status,
      };
      expect(fromStripeEvent(event(type, dispute))).toEqual([
        {
          kind: 'dispute',
          dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy',
          payment_reference: 'pi_3MtwBw',
          processor_reference: 'dp_1MtwBw',
          dispute: {
            processor_reference: 'dp_1MtwBw',
            payment_reference: 'pi_3MtwBw',
            status: expected,
            stage,
            amount: 1250,
            currency_code: 'EUR',
            reason: 'product_not_received',
            event: type,
            ...inquiry,
          },
        },
      ]);
    },
  );

  it('when a dispute carries evidence_details.due_by (Unix seconds), then the signal says until when evidence is taken', () => {
    const dispute = {
      id: 'dp_1MtwBw',
      object: 'dispute',
      amount: 1250,
      currency: 'eur',
      payment_intent: 'pi_3MtwBw',
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_details: { due_by: 1723679999, has_evidence: false, past_due: false, submission_count: 0 },
    };
    expect(fromStripeEvent(event('charge.dispute.created', dispute))![0]!.dispute!.evidence_due_by).toBe('2024-08-14T23:59:59.000Z');
  });

  // The EarlyFraudWarning, https://docs.stripe.com/api/radar/early_fraud_warnings/object (stripe/openapi fixtures3.json
  // "radar.early_fraud_warning": actionable, charge, created, fraud_type, id issfr_…, livemode; stripe-node's
  // Radar.EarlyFraudWarning adds payment_intent, "ID of the Payment Intent this early fraud warning is for").
  it.each(['radar.early_fraud_warning.created', 'radar.early_fraud_warning.updated'])(
    'when %s arrives, then it is an early fraud warning naming the PaymentIntent, never a dispute',
    (type) => {
      const warning = {
        id: 'issfr_1Pgc79B7WZ01zgkWxwDzEIPX',
        object: 'radar.early_fraud_warning',
        actionable: true,
        charge: 'ch_1234',
        created: 1234567890,
        fraud_type: 'made_with_stolen_card',
        livemode: false,
        payment_intent: 'pi_3MtwBw',
      };
      expect(fromStripeEvent(event(type, warning))).toEqual([
        {
          kind: 'early_fraud_warning',
          dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy',
          payment_reference: 'pi_3MtwBw',
          processor_reference: 'issfr_1Pgc79B7WZ01zgkWxwDzEIPX',
          early_fraud_warning: {
            processor_reference: 'issfr_1Pgc79B7WZ01zgkWxwDzEIPX',
            payment_reference: 'pi_3MtwBw',
            fraud_type: 'made_with_stolen_card',
            actionable: true,
          },
        },
      ]);
    },
  );

  it('when an early fraud warning has an unknown fraud type or no PaymentIntent, then the type reads misc, and one without its PaymentIntent is ignored', () => {
    const warning = {
      id: 'issfr_2',
      object: 'radar.early_fraud_warning',
      actionable: false,
      charge: 'ch_1',
      fraud_type: 'something_new',
      payment_intent: 'pi_9',
    };
    expect(fromStripeEvent(event('radar.early_fraud_warning.created', warning))![0]!.early_fraud_warning).toMatchObject({
      fraud_type: 'misc',
      actionable: false,
    });
    const { payment_intent: _intent, ...withoutIntent } = warning;
    expect(fromStripeEvent(event('radar.early_fraud_warning.created', withoutIntent))).toEqual([
      { kind: 'ignored', dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy' },
    ]);
  });

  it('when an event of another type arrives, then it is recorded as ignored; a body that is no event is null', () => {
    expect(fromStripeEvent(event('customer.created', { id: 'cus_1' }))).toEqual([{ kind: 'ignored', dedupe_key: 'stripe:evt_1NG8Du2eZvKYlo2CUI79vXWy' }]);
    expect(fromStripeEvent({ hello: 'world' })).toBeNull();
  });
});

/** An event as Stripe delivers it: the JSON body and its Stripe-Signature (the stand-in signs the same way). */
function signedStripeEvent(type: string, object: unknown, secret: string, at: Date): { rawBody: string; signature: string } {
  const rawBody = JSON.stringify({ id: 'evt_route1', object: 'event', type, data: { object } });
  const t = Math.floor(at.getTime() / 1000);
  return { rawBody, signature: `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}` };
}

describe('Stripe notifications on the route', () => {
  const credentials = { secret_key: 'sk_test_x', webhook_secret: SECRET };

  it('when a signed event arrives, then it verifies and is answered 200 {"received":true}; forged, it is one refused item answered 401 invalid_signature', () => {
    const { rawBody, signature } = signedStripeEvent('payment_intent.succeeded', intent, SECRET, NOW);
    const items = stripeNotifications.verify(credentials, Buffer.from(rawBody), { 'stripe-signature': signature }, NOW);
    expect(items).toMatchObject([{ verified: true, event: { kind: 'capture_succeeded' } }]);
    expect(stripeNotifications.answer({ accepted: 1, duplicates: 0, refused: 0, malformed: false })).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"received":true}',
    });
    const forged = stripeNotifications.verify(credentials, Buffer.from(rawBody), { 'stripe-signature': `t=${T},v1=${'0'.repeat(64)}` }, NOW);
    expect(forged).toEqual([{ verified: false, event_name: 'payment_intent.succeeded', processor_reference: 'pi_3MtwBw' }]);
    expect(stripeNotifications.answer({ accepted: 0, duplicates: 0, refused: 1, malformed: false })).toMatchObject({ refused: 'invalid_signature' });
    expect(stripeNotifications.headers).toEqual(['stripe-signature']);
  });

  it('when the body is not JSON, then it is malformed (400 invalid_notification)', () => {
    expect(stripeNotifications.verify(credentials, Buffer.from('not json'), {}, NOW)).toBeNull();
    expect(stripeNotifications.answer({ accepted: 0, duplicates: 0, refused: 0, malformed: true })).toMatchObject({ refused: 'invalid_notification' });
  });
});

import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseMultipart, startPspServer, type PspAnswer } from '@vaultline/testing/psp-stand-ins';

/**
 * The version Stripe answers a request in when it carries no `Stripe-Version`: the account's default. A
 * version before 2022-11-15, as an account opened years ago has: its PaymentIntents list their `charges`
 * and have no `latest_charge`, and its Charges embed their `refunds`.
 */
export const STRIPE_ACCOUNT_DEFAULT_VERSION = '2020-08-27';
/** The version where PaymentIntents got `latest_charge` and Charges stopped embedding `refunds`. */
const LATEST_CHARGE_VERSION = '2022-11-15';

/**
 * A stand-in of Stripe's PaymentIntents API on loopback, shaped after the real one
 * (https://docs.stripe.com/api/payment_intents): form-encoded requests with `Authorization: Bearer sk_…`,
 * `Idempotency-Key` honoured (the same key on the same path answers the first answer again), JSON
 * answers. `POST /v1/payment_intents` with the card inline (`payment_method_data[card][…]`, raw card data
 * access) and `confirm=true`; `…/{id}/capture` (`amount_to_capture`), `…/{id}/cancel`, `GET …/{id}`
 * (`expand[]=latest_charge`), `POST /v1/refunds`. Declines answer 402 with the error and the PaymentIntent,
 * as Stripe does. 3-D Secure: `requires_action` with `next_action.redirect_to_url`, the stand-in's own
 * issuer page at that URL, which sends the consumer back to `return_url` with `payment_intent` and
 * `redirect_status`. Webhooks signed as Stripe signs them: `Stripe-Signature: t=<unix>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>">` (a second `v1` with the previous secret while one is rotating).
 * It decides by the real card number the forwarder filled in (Stripe's test cards).
 *
 * Disputes (https://docs.stripe.com/api/disputes): `POST /v1/disputes/{id}` takes `evidence[<field>]` (the
 * text, or a file id) and `submit` (a submitted dispute is under_review, or warning_under_review for an
 * inquiry; one that is not waiting for a response is refused), `POST /v1/disputes/{id}/close` accepts it
 * (lost), `POST /v1/files` (multipart, `purpose=dispute_evidence`, PDF, JPEG or PNG) stores an evidence
 * file, as files.stripe.com does. Early fraud warnings: radar.early_fraud_warning.created names the charge and
 * the PaymentIntent.
 * Versions: each answer has the shapes of the request's `Stripe-Version` (the account's default, an old
 * one, without it), webhooks those of the endpoint's version (`webhookApiVersion`). Multicapture
 * (https://docs.stripe.com/payments/multicapture): a manual-capture PaymentIntent created with
 * `payment_method_options[card][request_multicapture]=if_available` takes captures with
 * `final_capture=false` (it stays requires_capture, amount_capturable shrinks) until one without it (or
 * with true) ends it succeeded; without multicapture `final_capture=false` is refused. `GET /v1/refunds/{id}`
 * answers a refund as it stands.
 */
export const STRIPE_TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** Always asks for 3-D Secure authentication (Stripe's "authenticate unless set up"). */
  threeDs: '4000002760003184',
  /** The charge succeeds; a refund of it is pending, then succeeds (charge.refund.updated, charge.refunded). */
  refundPending: '4000000000007726',
  /** Multicapture is unavailable for this card's PaymentIntents (the charge says multicapture.status unavailable). */
  multicaptureUnavailable: '4000000000000077',
} as const;

export interface StripeStandInOptions {
  secretKey: string;
  webhookSecret: string;
  /** While the endpoint's secret rotates, Stripe signs with both: the previous one gives a second v1. */
  previousWebhookSecret?: string;
  delayMs?: [number, number];
  /** The API version of the webhook endpoint (its events' object shapes); default the one the plugin pins, as its README asks. */
  webhookApiVersion?: string;
}

export interface StripeWebhook {
  rawBody: string;
  signature: string;
  type: string;
}

type Fields = Record<string, string>;
type Json = Record<string, unknown>;

export interface StripeIntent {
  id: string;
  /** The form fields as received (the card number is the real one the forwarder filled in). */
  fields: Fields;
  headers: IncomingMessage['headers'];
  object: Json;
}

export interface StripeStandIn {
  baseUrl: string;
  intents: StripeIntent[];
  captures: Array<{ intent: string; fields: Fields; headers: IncomingMessage['headers'] }>;
  cancels: Array<{ intent: string; fields: Fields }>;
  refunds: Array<{ fields: Fields; headers: IncomingMessage['headers']; object: Json }>;
  /** Every API request (not the issuer's page), with the Stripe-Version it carried (null: none, the account's default applied). */
  requests: Array<{ method: string; path: string; version: string | null }>;
  /** false: a pending refund that settles sends no webhook (a delivery lost): only asking Stripe tells. Default true. */
  refundWebhooks: boolean;
  /** false: a pending refund stays pending until settleRefund (default true: it succeeds 50 ms later). */
  settlePendingRefunds: boolean;
  /** Settles a refund left pending (succeeded or failed), as Stripe would later. */
  settleRefund(refundId: string, status: 'succeeded' | 'failed'): void;
  /** Signed webhooks, in the order Stripe would send them. */
  webhooks: StripeWebhook[];
  /** When set, each webhook is also sent there as Stripe sends it (POST, Stripe-Signature), not awaited. */
  webhookUrl: string | null;
  /** Resolves once every webhook sent so far was answered (Stripe's deliveries are in flight meanwhile). */
  delivered(): Promise<void>;
  /** The charges, by id (a PaymentIntent's latest_charge). */
  charges: Map<string, Record<string, unknown>>;
  /** Opens a dispute on a succeeded PaymentIntent (charge.dispute.created); returns the dispute id. `status` warning_needs_response opens an inquiry. */
  dispute(intentId: string, reason?: string, status?: 'needs_response' | 'warning_needs_response'): string;
  /** The disputes, by id, as Stripe shows them now (status, evidence, evidence_details). */
  disputes: Map<string, Record<string, unknown>>;
  /** Evidence files received (`POST /v1/files`), with their bytes. */
  files: Array<{ id: string; purpose: string; filename: string; type: string; content: Buffer; headers: IncomingMessage['headers'] }>;
  /** Dispute requests received (`POST /v1/disputes/{id}` and `…/close`), with their form fields. */
  disputeRequests: Array<{ dispute: string; action: 'update' | 'close'; fields: Fields; headers: IncomingMessage['headers'] }>;
  /** An early fraud warning on a succeeded PaymentIntent (radar.early_fraud_warning.created); returns its id. */
  earlyFraudWarning(intentId: string, fraudType?: string): string;
  /** Closes a dispute (charge.dispute.closed) as won or lost. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): void;
  /** A signed webhook of any event, for tests of the verification. */
  signedEvent(type: string, object: Json, at?: Date): StripeWebhook;
  failNext(count: number): void;
  delayNext(ms: number): void;
  stop(): Promise<void>;
}

const letters = (n: number) => Array.from(randomBytes(n), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[byte % 52]).join('');

/** A 15-digit network transaction id that fails the Luhn check, so no card-number scan takes it for a PAN. */
function networkTransactionId(): string {
  const digits = Array.from(randomBytes(15), (byte) => byte % 10);
  const luhn = (values: number[]) =>
    values.reduceRight((sum, d, i) => sum + ((values.length - 1 - i) % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) % 10 === 0;
  if (luhn(digits)) digits[14] = (digits[14]! + 1) % 10;
  return digits.join('');
}

/** `Stripe-Signature` for a raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` per secret. */
export function stripeSignatureHeader(rawBody: string, secrets: readonly string[], at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`)].join(',');
}

const error = (status: number, type: string, code: string, message: string, extra: Json = {}): PspAnswer => ({
  status,
  body: { error: { type, code, message, ...extra } },
});

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const webhookVersion = options.webhookApiVersion ?? '2024-06-20';
  const requests: StripeStandIn['requests'] = [];
  const intents: StripeIntent[] = [];
  const captures: StripeStandIn['captures'] = [];
  const cancels: StripeStandIn['cancels'] = [];
  const refunds: StripeStandIn['refunds'] = [];
  const webhooks: StripeWebhook[] = [];
  const charges = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  const files: StripeStandIn['files'] = [];
  const disputeRequests: StripeStandIn['disputeRequests'] = [];
  const answered = new Map<string, PspAnswer>();
  const standIn = { webhookUrl: null as string | null, baseUrl: '', refundWebhooks: true, settlePendingRefunds: true };
  /** How each pending refund settles (succeeded or failed), by refund id. */
  const pendingRefunds = new Map<string, (status: 'succeeded' | 'failed') => void>();
  const settleRefund = (refundId: string, status: 'succeeded' | 'failed') => {
    const settle = pendingRefunds.get(refundId);
    if (!settle) throw new Error(`no pending refund ${refundId}`);
    pendingRefunds.delete(refundId);
    settle(status);
  };
  const secrets = [options.webhookSecret, ...(options.previousWebhookSecret ? [options.previousWebhookSecret] : [])];

  function signedEvent(type: string, object: Json, at = new Date()): StripeWebhook {
    const rawBody = JSON.stringify({
      id: `evt_${letters(24)}`,
      object: 'event',
      api_version: webhookVersion,
      created: Math.floor(at.getTime() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: `req_${letters(14)}`, idempotency_key: null },
      type,
    });
    return { rawBody, signature: stripeSignatureHeader(rawBody, secrets, at), type };
  }
  const inFlight = new Set<Promise<unknown>>();
  const send = (type: string, object: Json) => {
    const webhook = signedEvent(type, object);
    webhooks.push(webhook);
    if (!standIn.webhookUrl) return;
    const delivery = fetch(standIn.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': webhook.signature },
      body: webhook.rawBody,
    }).catch(() => undefined);
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };
  const delivered = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };

  const intentOf = (id: string) => intents.find((candidate) => candidate.id === id);
  const isOld = (version: string) => version < LATEST_CHARGE_VERSION;
  /** A Charge in a version's shape: its refunds embedded before 2022-11-15, not after (expandable only). */
  const chargeView = (chargeId: string, version: string): Json => {
    const { refunds, ...rest } = charges.get(chargeId)!;
    return isOld(version) ? { ...rest, refunds } : rest;
  };
  /**
   * The PaymentIntent as Stripe answers it in a version: from 2022-11-15 latest_charge (expanded when
   * asked, `expand[]=latest_charge`); before, its `charges` list and no latest_charge.
   */
  const view = (intent: StripeIntent, expand: boolean, version: string = webhookVersion): Json => {
    const chargeId = intent.object.latest_charge as string | null;
    const { latest_charge: _latest, ...rest } = intent.object;
    if (isOld(version)) return { ...rest, charges: { object: 'list', data: chargeId ? [chargeView(chargeId, version)] : [], has_more: false } };
    return { ...rest, latest_charge: expand && chargeId ? chargeView(chargeId, version) : chargeId };
  };

  /** Multicapture was asked for at creation and the card offers it. */
  const multicaptureOf = (intent: StripeIntent) =>
    intent.fields['payment_method_options[card][request_multicapture]'] === 'if_available' &&
    intent.fields['payment_method_data[card][number]'] !== STRIPE_TEST_CARDS.multicaptureUnavailable;

  function charge(intent: StripeIntent, threeDs: Json | null): Json {
    const id = `ch_${letters(24)}`;
    const card = {
      brand: 'visa',
      last4: intent.fields['payment_method_data[card][number]']!.slice(-4),
      exp_month: Number(intent.fields['payment_method_data[card][exp_month]']),
      exp_year: Number(intent.fields['payment_method_data[card][exp_year]']),
      network_transaction_id: networkTransactionId(),
      three_d_secure: threeDs,
      checks: { cvc_check: intent.fields['payment_method_data[card][cvc]'] ? 'pass' : null },
      multicapture: { status: multicaptureOf(intent) ? 'available' : 'unavailable' },
    };
    const object: Json = {
      id,
      object: 'charge',
      amount: intent.object.amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      currency: intent.object.currency,
      paid: true,
      payment_intent: intent.id,
      metadata: intent.object.metadata,
      payment_method_details: { type: 'card', card },
      refunded: false,
      refunds: { object: 'list', data: [], has_more: false },
    };
    charges.set(id, object);
    return object;
  }

  /** The card went through (after 3-D Secure, or without): requires_capture or succeeded, with its charge. */
  function authorize(intent: StripeIntent, threeDs: Json | null): void {
    const made = charge(intent, threeDs);
    const manual = intent.object.capture_method === 'manual';
    Object.assign(intent.object, {
      status: manual ? 'requires_capture' : 'succeeded',
      latest_charge: made.id,
      amount_capturable: manual ? intent.object.amount : 0,
      amount_received: manual ? 0 : intent.object.amount,
      next_action: null,
      last_payment_error: null,
    });
    if (manual) send('payment_intent.amount_capturable_updated', view(intent, false));
    else {
      Object.assign(made, { captured: true, amount_captured: intent.object.amount });
      send('charge.succeeded', made);
      send('payment_intent.succeeded', view(intent, false));
    }
  }

  function decline(intent: StripeIntent, code: string, declineCode: string | null, message: string): PspAnswer {
    const lastError = { type: 'card_error', code, decline_code: declineCode, message };
    Object.assign(intent.object, { status: 'requires_payment_method', last_payment_error: lastError });
    send('payment_intent.payment_failed', view(intent, false));
    return error(402, 'card_error', code, message, { decline_code: declineCode, payment_intent: view(intent, false) });
  }

  function createIntent(fields: Fields, headers: IncomingMessage['headers'], version: string): PspAnswer {
    const amount = fields.amount;
    if (!amount || !/^\d+$/.test(amount))
      return error(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: amount.', { param: 'amount' });
    if (!fields.currency || !/^[a-z]{3}$/.test(fields.currency))
      return error(400, 'invalid_request_error', 'parameter_invalid', 'Invalid currency.', { param: 'currency' });
    if (fields.confirm !== 'true')
      return error(400, 'invalid_request_error', 'parameter_invalid', 'This stand-in takes confirm=true only.', { param: 'confirm' });
    if (fields['payment_method_data[type]'] !== 'card')
      return error(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: payment_method_data[type].', {
        param: 'payment_method_data[type]',
      });
    const number = fields['payment_method_data[card][number]'] ?? '';
    if (!/^\d{12,19}$/.test(number))
      return error(402, 'card_error', 'invalid_number', 'Your card number is incorrect.', { param: 'payment_method_data[card][number]' });
    if (!/^\d{1,2}$/.test(fields['payment_method_data[card][exp_month]'] ?? '') || !/^\d{4}$/.test(fields['payment_method_data[card][exp_year]'] ?? '')) {
      return error(402, 'card_error', 'invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'payment_method_data[card][exp_month]' });
    }
    if (fields.capture_method && !['automatic', 'automatic_async', 'manual'].includes(fields.capture_method))
      return error(400, 'invalid_request_error', 'parameter_invalid', 'Invalid capture_method.', { param: 'capture_method' });
    const offSession = fields.off_session === 'true';
    const networkTransaction = fields['payment_method_options[card][mit_exemption][network_transaction_id]'];
    if (networkTransaction !== undefined && !offSession)
      return error(400, 'invalid_request_error', 'parameter_invalid', 'mit_exemption can only be used with off_session=true.', {
        param: 'payment_method_options[card][mit_exemption]',
      });
    if (offSession && (fields['payment_method_data[card][cvc]'] !== undefined || fields.setup_future_usage !== undefined)) {
      return error(400, 'invalid_request_error', 'parameter_invalid', 'An off-session payment takes no cvc and no setup_future_usage.', {
        param: 'off_session',
      });
    }
    const id = `pi_${letters(24)}`;
    const metadata = Object.fromEntries(
      Object.entries(fields).flatMap(([key, value]) => (/^metadata\[(.+)\]$/.exec(key) ? [[/^metadata\[(.+)\]$/.exec(key)![1]!, value]] : [])),
    );
    const intent: StripeIntent = {
      id,
      fields,
      headers,
      object: {
        id,
        object: 'payment_intent',
        amount: Number(amount),
        amount_capturable: 0,
        amount_received: 0,
        capture_method: fields.capture_method ?? 'automatic_async',
        client_secret: `${id}_secret_${letters(24)}`,
        currency: fields.currency,
        latest_charge: null,
        last_payment_error: null,
        livemode: false,
        metadata,
        next_action: null,
        setup_future_usage: fields.setup_future_usage ?? null,
        status: 'requires_confirmation',
      },
    };
    intents.push(intent);
    if (number === STRIPE_TEST_CARDS.declined) return decline(intent, 'card_declined', 'generic_decline', 'Your card was declined.');
    if (number === STRIPE_TEST_CARDS.insufficientFunds) return decline(intent, 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
    const wantsThreeDs = (number === STRIPE_TEST_CARDS.threeDs || fields['payment_method_options[card][request_three_d_secure]'] === 'any') && !offSession;
    if (wantsThreeDs) {
      if (fields.error_on_requires_action === 'true' || !fields.return_url)
        return decline(intent, 'authentication_required', 'authentication_required', 'Your card was declined. This transaction requires authentication.');
      Object.assign(intent.object, {
        status: 'requires_action',
        next_action: { type: 'redirect_to_url', redirect_to_url: { url: `${standIn.baseUrl}/3ds/${id}`, return_url: fields.return_url } },
      });
      return { status: 200, body: view(intent, fields['expand[]'] === 'latest_charge', version) };
    }
    authorize(intent, null);
    return { status: 200, body: view(intent, fields['expand[]'] === 'latest_charge', version) };
  }

  /** The issuer's page: two links, and where each sends the consumer (back to return_url, as Stripe does). */
  function issuerPage(intentId: string, outcome: string | null): PspAnswer {
    const intent = intentOf(intentId);
    if (!intent || intent.object.status !== 'requires_action') return { status: 404, body: undefined, html: '<p>Unknown authentication.</p>' };
    if (outcome === null) {
      const page = `<!doctype html><title>3D Secure 2 Test Page</title><h1>3D Secure 2 Test Page</h1><a id="complete" href="/3ds/${intentId}/complete?outcome=completed">Complete</a> <a id="fail" href="/3ds/${intentId}/complete?outcome=failed">Fail</a>`;
      return { status: 200, body: undefined, html: page };
    }
    const returnUrl = (intent.object.next_action as { redirect_to_url: { return_url: string } }).redirect_to_url.return_url;
    if (outcome === 'completed') {
      authorize(intent, {
        authentication_flow: 'challenge',
        result: 'authenticated',
        result_reason: null,
        version: '2.2.0',
        electronic_commerce_indicator: '05',
        transaction_id: `${letters(8)}-${letters(4)}-${letters(4)}-${letters(4)}-${letters(12)}`,
      });
    } else {
      decline(intent, 'payment_intent_authentication_failure', null, 'We are unable to authenticate your payment method.');
      intent.object.next_action = null;
    }
    const back = new URL(returnUrl);
    back.searchParams.set('payment_intent', intentId);
    back.searchParams.set('payment_intent_client_secret', String(intent.object.client_secret));
    back.searchParams.set('redirect_status', outcome === 'completed' ? 'succeeded' : 'failed');
    return { status: 302, body: undefined, headers: { location: back.href }, html: '' };
  }

  function capture(intent: StripeIntent, fields: Fields, headers: IncomingMessage['headers'], version: string): PspAnswer {
    if (intent.object.status !== 'requires_capture')
      return error(
        400,
        'invalid_request_error',
        'payment_intent_unexpected_state',
        `This PaymentIntent could not be captured because it has a status of ${String(intent.object.status)}.`,
      );
    if (fields.final_capture !== undefined && !['true', 'false'].includes(fields.final_capture))
      return error(400, 'invalid_request_error', 'parameter_invalid', 'Invalid boolean: final_capture.', { param: 'final_capture' });
    const final = fields.final_capture !== 'false';
    if (fields.final_capture !== undefined && !multicaptureOf(intent))
      return error(400, 'invalid_request_error', 'parameter_invalid', 'final_capture can only be used when multicapture is available for this PaymentIntent.', {
        param: 'final_capture',
      });
    const capturable = intent.object.amount_capturable as number;
    const amount = fields.amount_to_capture === undefined ? capturable : Number(fields.amount_to_capture);
    if (!Number.isInteger(amount) || amount <= 0 || amount > capturable)
      return error(400, 'invalid_request_error', 'amount_too_large', 'amount_to_capture must be at most amount_capturable.', { param: 'amount_to_capture' });
    captures.push({ intent: intent.id, fields, headers });
    const received = (intent.object.amount_received as number) + amount;
    Object.assign(intent.object, {
      status: final ? 'succeeded' : 'requires_capture',
      amount_capturable: final ? 0 : capturable - amount,
      amount_received: received,
    });
    const made = charges.get(intent.object.latest_charge as string)!;
    Object.assign(made, { captured: true, amount_captured: received });
    send('charge.captured', chargeView(made.id as string, webhookVersion));
    if (final) send('payment_intent.succeeded', view(intent, false));
    else send('payment_intent.amount_capturable_updated', view(intent, false));
    return { status: 200, body: view(intent, fields['expand[]'] === 'latest_charge', version) };
  }

  function cancel(intent: StripeIntent, fields: Fields, version: string): PspAnswer {
    if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(String(intent.object.status))) {
      return error(
        400,
        'invalid_request_error',
        'payment_intent_unexpected_state',
        `You cannot cancel this PaymentIntent because it has a status of ${String(intent.object.status)}.`,
      );
    }
    cancels.push({ intent: intent.id, fields });
    // The remaining amount_capturable is released (after captures of a multicapture too).
    Object.assign(intent.object, { status: 'canceled', cancellation_reason: fields.cancellation_reason ?? null, amount_capturable: 0 });
    send('payment_intent.canceled', view(intent, false));
    return { status: 200, body: view(intent, false, version) };
  }

  function refund(fields: Fields, headers: IncomingMessage['headers']): PspAnswer {
    const intent = fields.payment_intent ? intentOf(fields.payment_intent) : undefined;
    if (!intent)
      return error(400, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${fields.payment_intent ?? ''}'`, { param: 'payment_intent' });
    if ((intent.object.amount_received as number) <= 0)
      return error(400, 'invalid_request_error', 'charge_not_refundable', 'This PaymentIntent has no successful charge to refund.');
    if (fields.reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(fields.reason))
      return error(400, 'invalid_request_error', 'parameter_invalid', 'Invalid reason.', { param: 'reason' });
    const made = charges.get(intent.object.latest_charge as string)!;
    const left = (made.amount_captured as number) - (made.amount_refunded as number);
    const amount = fields.amount === undefined ? left : Number(fields.amount);
    if (!Number.isInteger(amount) || amount <= 0 || amount > left)
      return error(400, 'invalid_request_error', 'charge_already_refunded', 'Refund amount is greater than the amount left to refund.', { param: 'amount' });
    const pending = intent.fields['payment_method_data[card][number]'] === STRIPE_TEST_CARDS.refundPending;
    const metadata = Object.fromEntries(
      Object.entries(fields).flatMap(([key, value]) => (/^metadata\[(.+)\]$/.exec(key) ? [[/^metadata\[(.+)\]$/.exec(key)![1]!, value]] : [])),
    );
    const object: Json = {
      id: `re_${letters(24)}`,
      object: 'refund',
      amount,
      charge: made.id,
      currency: made.currency,
      payment_intent: intent.id,
      reason: fields.reason ?? null,
      status: pending ? 'pending' : 'succeeded',
      metadata,
    };
    refunds.push({ fields, headers, object });
    const settle = () => {
      Object.assign(made, {
        amount_refunded: (made.amount_refunded as number) + amount,
        refunded: (made.amount_refunded as number) + amount === made.amount_captured,
      });
      (made.refunds as { data: Json[] }).data.unshift(object);
      if (standIn.refundWebhooks || !pending) send('charge.refunded', chargeView(made.id as string, webhookVersion));
    };
    if (pending) {
      const later = (status: 'succeeded' | 'failed') => {
        object.status = status;
        if (standIn.refundWebhooks) send('charge.refund.updated', { ...object });
        if (status === 'succeeded') settle();
      };
      if (standIn.settlePendingRefunds) setTimeout(() => later('succeeded'), 50);
      else pendingRefunds.set(object.id as string, later);
    } else settle();
    return { status: 200, body: { ...object } };
  }

  function dispute(intentId: string, reason = 'fraudulent', status: 'needs_response' | 'warning_needs_response' = 'needs_response'): string {
    const intent = intentOf(intentId);
    if (!intent || intent.object.status !== 'succeeded') throw new Error(`no succeeded PaymentIntent ${intentId}`);
    const id = `dp_${letters(24)}`;
    const object: Json = {
      id,
      object: 'dispute',
      amount: intent.object.amount_received,
      charge: intent.object.latest_charge,
      currency: intent.object.currency,
      payment_intent: intentId,
      reason,
      status,
      is_charge_refundable: status === 'warning_needs_response',
      metadata: {},
      evidence: {},
      evidence_details: { due_by: Math.floor(Date.now() / 1000) + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
    };
    disputes.set(id, object);
    send('charge.dispute.created', { ...object });
    return id;
  }

  function earlyFraudWarning(intentId: string, fraudType = 'made_with_stolen_card'): string {
    const intent = intentOf(intentId);
    if (!intent || intent.object.status !== 'succeeded') throw new Error(`no succeeded PaymentIntent ${intentId}`);
    const id = `issfr_${letters(24)}`;
    send('radar.early_fraud_warning.created', {
      id,
      object: 'radar.early_fraud_warning',
      actionable: true,
      charge: intent.object.latest_charge,
      created: Math.floor(Date.now() / 1000),
      fraud_type: fraudType,
      livemode: false,
      payment_intent: intentId,
    });
    return id;
  }

  const FILE_TYPES: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

  function uploadFile(contentType: string | undefined, bytes: Buffer, headers: IncomingMessage['headers']): PspAnswer {
    const parts = parseMultipart(contentType, bytes);
    if (!parts) return error(400, 'invalid_request_error', 'parameter_invalid', 'Files are uploaded as multipart/form-data.');
    const purpose = parts.find((part) => part.name === 'purpose')?.content.toString('utf8');
    const file = parts.find((part) => part.name === 'file' && part.filename !== null);
    if (purpose !== 'dispute_evidence') return error(400, 'invalid_request_error', 'parameter_invalid', 'Invalid purpose.', { param: 'purpose' });
    if (!file) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: file.', { param: 'file' });
    const type = FILE_TYPES[file.contentType ?? ''];
    if (!type) return error(400, 'invalid_request_error', 'file_invalid', 'Dispute evidence files must be PDF, JPEG or PNG.', { param: 'file' });
    const id = `file_${letters(24)}`;
    files.push({ id, purpose, filename: file.filename!, type, content: Buffer.from(file.content), headers });
    return {
      status: 200,
      body: { id, object: 'file', purpose, filename: file.filename, size: file.content.length, type, created: Math.floor(Date.now() / 1000) },
    };
  }

  const OPEN_DISPUTE = ['needs_response', 'warning_needs_response'];

  function updateDispute(id: string, fields: Fields, headers: IncomingMessage['headers']): PspAnswer {
    const object = disputes.get(id);
    if (!object) return error(404, 'invalid_request_error', 'resource_missing', `No such dispute: '${id}'`);
    disputeRequests.push({ dispute: id, action: 'update', fields, headers });
    if (!OPEN_DISPUTE.includes(String(object.status)))
      return error(400, 'invalid_request_error', 'dispute_already_closed', `This dispute is ${String(object.status)} and can no longer be updated.`);
    const evidence = object.evidence as Json;
    for (const [key, value] of Object.entries(fields)) {
      const name = /^evidence\[([a-z_]+)\]$/.exec(key)?.[1];
      if (!name) continue;
      if (value.startsWith('file_') && !files.some((file) => file.id === value))
        return error(400, 'invalid_request_error', 'resource_missing', `No such file upload: '${value}'`, { param: key });
      evidence[name] = value;
    }
    const details = object.evidence_details as Json;
    details.has_evidence = Object.keys(evidence).length > 0;
    if (fields.submit === 'true') {
      object.status = object.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review';
      details.submission_count = (details.submission_count as number) + 1;
      send('charge.dispute.updated', { ...object });
    }
    return { status: 200, body: { ...object } };
  }

  function closeOpenDispute(id: string, fields: Fields, headers: IncomingMessage['headers']): PspAnswer {
    const object = disputes.get(id);
    if (!object) return error(404, 'invalid_request_error', 'resource_missing', `No such dispute: '${id}'`);
    disputeRequests.push({ dispute: id, action: 'close', fields, headers });
    if (!OPEN_DISPUTE.includes(String(object.status)))
      return error(400, 'invalid_request_error', 'dispute_already_closed', `This dispute is ${String(object.status)}: it cannot be closed.`);
    object.status = object.status === 'warning_needs_response' ? 'warning_closed' : 'lost';
    send('charge.dispute.closed', { ...object });
    return { status: 200, body: { ...object } };
  }

  function closeDispute(disputeId: string, status: 'won' | 'lost'): void {
    const object = disputes.get(disputeId);
    if (!object) throw new Error(`no dispute ${disputeId}`);
    object.status = status;
    send('charge.dispute.closed', { ...object });
  }

  const server = await startPspServer(
    {
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
      unavailable: { status: 503, body: error(503, 'api_error', 'api_error', 'Stripe is unavailable.').body },
    },
    (req, raw, bytes) => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const page = /^\/3ds\/(pi_[A-Za-z0-9]+)(\/complete)?$/.exec(url.pathname);
      if (req.method === 'GET' && page) return issuerPage(page[1]!, page[2] ? (url.searchParams.get('outcome') ?? 'failed') : null);
      if (req.headers.authorization !== `Bearer ${options.secretKey}`)
        return error(401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided.');
      if (req.method === 'POST' && url.pathname === '/v1/files') return uploadFile(req.headers['content-type'], bytes, req.headers);
      if (req.method === 'POST' && !String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return error(400, 'invalid_request_error', 'parameter_invalid', 'Stripe takes application/x-www-form-urlencoded bodies.');
      }
      const fields: Fields = Object.fromEntries(new URLSearchParams(raw));
      const asked = req.headers['stripe-version'];
      const version = typeof asked === 'string' ? asked : STRIPE_ACCOUNT_DEFAULT_VERSION;
      requests.push({ method: req.method ?? '', path: url.pathname, version: typeof asked === 'string' ? asked : null });
      const key = req.headers['idempotency-key'];
      const scopedKey = req.method === 'POST' && typeof key === 'string' ? `${url.pathname}\u0000${key}` : null;
      const earlier = scopedKey ? answered.get(scopedKey) : undefined;
      if (earlier) return earlier;
      const action = /^\/v1\/payment_intents\/(pi_[A-Za-z0-9]+)(?:\/(capture|cancel))?$/.exec(url.pathname);
      const disputeAction = /^\/v1\/disputes\/(dp_[A-Za-z0-9]+)(\/close)?$/.exec(url.pathname);
      const intent = action ? intentOf(action[1]!) : undefined;
      const refundAsked = /^\/v1\/refunds\/(re_[A-Za-z0-9]+)$/.exec(url.pathname);
      let answer: PspAnswer;
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') answer = createIntent(fields, req.headers, version);
      else if (req.method === 'POST' && url.pathname === '/v1/refunds') answer = refund(fields, req.headers);
      else if (req.method === 'GET' && refundAsked) {
        const found = refunds.find((candidate) => candidate.object.id === refundAsked[1]);
        return found
          ? { status: 200, body: { ...found.object } }
          : error(404, 'invalid_request_error', 'resource_missing', `No such refund: '${refundAsked[1]!}'`);
      } else if (action && !intent) answer = error(404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${action[1]!}'`);
      else if (req.method === 'GET' && action && !action[2])
        return { status: 200, body: view(intent!, url.searchParams.getAll('expand[]').includes('latest_charge'), version) };
      else if (req.method === 'POST' && action?.[2] === 'capture') answer = capture(intent!, fields, req.headers, version);
      else if (req.method === 'POST' && action?.[2] === 'cancel') answer = cancel(intent!, fields, version);
      else if (req.method === 'POST' && disputeAction)
        answer = disputeAction[2] ? closeOpenDispute(disputeAction[1]!, fields, req.headers) : updateDispute(disputeAction[1]!, fields, req.headers);
      else answer = error(404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${req.method} ${url.pathname}).`);
      if (scopedKey) answered.set(scopedKey, answer);
      return answer;
    },
  );
  standIn.baseUrl = server.baseUrl;
  return Object.assign(standIn, server, {
    intents,
    captures,
    cancels,
    refunds,
    requests,
    webhooks,
    charges,
    delivered,
    dispute,
    closeDispute,
    signedEvent,
    settleRefund,
    disputes,
    files,
    disputeRequests,
    earlyFraudWarning,
  });
}

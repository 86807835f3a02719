import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../envelope';
import { prose } from '../prose';

/** Topic names: one per aggregate type, owned by one service. */
export const topics = {
  tokens: 'vault.tokens',
  checkoutSessionsCompleted: 'vault.checkout-sessions',
  detokenizations: 'vault.detokenizations',
  forwards: 'forwarder.forwards',
  imports: 'importer.imports',
  payments: 'payments.payments',
  refunds: 'payments.refunds',
  checkoutSessionsOpened: 'payments.checkout-sessions',
  disputes: 'payments.disputes',
  earlyFraudWarnings: 'payments.early-fraud-warnings',
} as const;

const id = z.string().min(1);
const isoTime = z.string().datetime({ offset: false });

export const tokenCreatedV1 = defineEvent({
  type: 'token.created',
  version: 1,
  topic: topics.tokens,
  description: 'A token was created, or its card data replaced (updated: true) by an import with a known business_key.',
  schema: z.object({
    token_id: id,
    business_key: z.string().nullable(),
    scheme: z.string(),
    fingerprint: z.string(),
    source: z.enum(['api', 'cde_import', 'checkout']),
    updated: z.boolean(),
    /** Carried from /cde-import (an import job id, for example). */
    correlation_id: z.string().nullable(),
    /** Whether the token holds a security code (added within v1: absent in earlier events). */
    security_code_stored: z.boolean().optional(),
  }),
  keyOf: (data) => data.token_id,
});

export const tokenDeletedV1 = defineEvent({
  type: 'token.deleted',
  version: 1,
  topic: topics.tokens,
  description: 'A token and its card data were destroyed.',
  schema: z.object({ token_id: id }),
  keyOf: (data) => data.token_id,
});

export const tokenDetokenizedV1 = defineEvent({
  type: 'token.detokenized',
  version: 1,
  topic: topics.detokenizations,
  description: "An internal caller received a token's card data (ids and purpose only).",
  schema: z.object({ token_id: id, caller: z.string(), purpose: z.string(), audit_id: id }),
  keyOf: (data) => data.token_id,
});

export const checkoutSessionOpenedV1 = defineEvent({
  type: 'checkout.session.opened',
  version: 1,
  topic: topics.checkoutSessionsOpened,
  description: 'The orchestrator opened a consumer-present session for a payment.',
  schema: z.object({
    session_id: id,
    payment_id: id,
    amount: z.number().int().nonnegative(),
    currency: z.string().length(3),
    expires_at: isoTime,
    return_url: z.string().url().nullable(),
    /**
     * The origins that may frame the hosted page and receive its messages (the merchant's
     * allowed_origins, or return_url's origin). Absent in events published before it existed: none.
     */
    allowed_origins: z.array(z.string()).optional(),
    /** The order line the hosted page shows under the amount (added within v1: absent in earlier events). */
    description: z.string().nullable().optional(),
    /** The language the hosted page speaks (en, de, fr, es, nl, it, with an optional region); absent or null: the browser's. */
    locale: z.string().nullable().optional(),
    /** The merchant's name (the hosted page shows it when the shop set no display name); added within v1, absent before. */
    merchant_name: z.string().nullable().optional(),
    /**
     * A card the merchant stored (earlier interface, COF and mandates from a stored card): the page shows
     * it masked and the consumer confirms it, entering only the security code when one is required; the
     * completion then names this token. Absent when the consumer enters a card (and in older events).
     */
    stored_card: z
      .object({
        token_id: id,
        masked_account_number: z.string(),
        scheme: z.string().nullable(),
        expiry_month: z.number().int().min(1).max(12),
        expiry_year: z.number().int(),
        cardholder_name: z.string().nullable(),
        security_code_required: z.boolean(),
      })
      .optional(),
  }),
  keyOf: (data) => data.session_id,
});

/** A stored card a checkout session offers (earlier interface), as the orchestrator sends it and the vault keeps it. */
export type StoredCardOffer = NonNullable<z.infer<typeof checkoutSessionOpenedV1.schema>['stored_card']>;

/** The browser data 3-D Secure 2 needs: the page reads most of it, the vault adds the accept header and the client address. */
export const browserInfoSchema = z.object({
  user_agent: z.string().max(1024),
  accept_header: z.string().max(1024),
  language: z.string().max(35),
  screen_width: z.number().int().min(0).max(100_000),
  screen_height: z.number().int().min(0).max(100_000),
  color_depth: z.number().int().min(0).max(64),
  time_zone_offset: z.number().int().min(-900).max(900),
  java_enabled: z.boolean(),
  ip_address: z.string().max(64).nullable(),
});
export type BrowserInfoData = z.infer<typeof browserInfoSchema>;

export const checkoutSessionCompletedV1 = defineEvent({
  type: 'checkout.session.completed',
  version: 1,
  topic: topics.checkoutSessionsCompleted,
  description:
    'The consumer entered a card in a checkout session; the vault tokenized it. `card` carries what a payment may show and route on: never the account number or the security code.',
  schema: z.object({
    session_id: id,
    payment_id: id,
    token_id: id,
    card: z.object({
      masked_account_number: z.string(),
      scheme: z.string(),
      expiry_month: z.number().int().min(1).max(12),
      expiry_year: z.number().int(),
      cardholder_name: z.string().nullable(),
      /** The time the consumer submitted the card (consent time for stored credentials and mandates). */
      submitted_at: isoTime,
    }),
    /** The consumer's browser for 3-D Secure 2 (added within v1: absent in earlier events and when the page sent none). */
    browser: browserInfoSchema.optional(),
    /**
     * Which card attempt of the session this is: 1 for the first card, 2 after a declined one… (added within
     * v1: absent in earlier events, read as 1). The payment takes a completion only for the attempt it waits for.
     */
    attempt: z.number().int().min(1).optional(),
  }),
  keyOf: (data) => data.session_id,
});

export const checkoutSessionAbandonedV1 = defineEvent({
  type: 'checkout.session.abandoned',
  version: 1,
  topic: topics.checkoutSessionsCompleted,
  description:
    'The consumer left the hosted page ("Return to the shop" after a failed card attempt) while it waited for a card: the payment fails with the last attempt\'s reason.',
  schema: z.object({
    session_id: id,
    payment_id: id,
    abandoned_at: isoTime,
  }),
  keyOf: (data) => data.session_id,
});

export const checkoutSessionReturnedV1 = defineEvent({
  type: 'checkout.session.returned',
  version: 1,
  topic: topics.checkoutSessionsCompleted,
  description:
    'The consumer came back to the hosted page from authenticating (3-D Secure): `parameters` are the return parameters the processor named (Adyen redirectResult, Checkout.com cko-session-id), nothing else.',
  schema: z.object({
    session_id: id,
    payment_id: id,
    parameters: z.record(z.string(), z.string().max(8_192)),
    returned_at: isoTime,
  }),
  keyOf: (data) => data.session_id,
});

export const forwardCompletedV1 = defineEvent({
  type: 'forward.completed',
  version: 1,
  topic: topics.forwards,
  description: 'A forward was sent (or refused before sending); no card data, no credentials.',
  schema: z.object({
    forward_id: id,
    token_id: id,
    destination_host: z.string(),
    destination_path: z.string(),
    /** The destination's HTTP status, or null when it was not reached. */
    status: z.number().int().nullable(),
    outcome: z.enum(['delivered', 'unreachable', 'timeout', 'rejected']),
    duration_ms: z.number().nonnegative(),
    added_ms: z.number().nonnegative(),
  }),
  keyOf: (data) => data.forward_id,
});

const importCounts = z.object({
  total: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Of imported + updated, the tokens without a security code (added within v1: absent in earlier events). */
  imported_without_security_code: z.number().int().nonnegative().optional(),
});

export const importStartedV1 = defineEvent({
  type: 'import.started',
  version: 1,
  topic: topics.imports,
  description: 'An automatic import job began reading the platform account.',
  schema: z.object({ import_id: id, provider: z.string() }),
  keyOf: (data) => data.import_id,
});

export const importCompletedV1 = defineEvent({
  type: 'import.completed',
  version: 1,
  topic: topics.imports,
  description: 'An automatic import job finished; counts tell how many tokens it produced.',
  schema: z.object({ import_id: id, provider: z.string(), state: z.literal('finished'), counts: importCounts, finished_at: isoTime }),
  keyOf: (data) => data.import_id,
});

export const importFailedV1 = defineEvent({
  type: 'import.failed',
  version: 1,
  topic: topics.imports,
  description: 'An automatic import job stopped without finishing (reason says why).',
  schema: z.object({
    import_id: id,
    provider: z.string(),
    state: z.literal('failed'),
    reason: z.string(),
    /** What the merchant can do about it, e.g. what to ask the platform for (added within v1). */
    failure_detail: z.string().optional(),
    counts: importCounts,
    finished_at: isoTime,
  }),
  keyOf: (data) => data.import_id,
});

/**
 * One manual capture of a payment (added within v1, on payment.capturing, payment.captured and
 * payment.capture_failed): its number on the payment, its amount, whether it is the final one (the
 * processor releases the rest of the authorization) and how it went.
 */
const captureData = z.object({
  sequence: z.number().int().positive(),
  amount: z.number().int().positive(),
  final: z.boolean(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  failure_reason: z.string().nullable(),
  reference: z.string().nullable(),
});

/**
 * A declined (or unanswered) authorization, normalised across processors (added within v1): on
 * payment.failed when a decline failed the payment, and on payment.attempt_failed's attempt.
 */
export const DECLINE_CATEGORIES = [
  'authentication_required',
  'insufficient_funds',
  'do_not_honor',
  'suspected_fraud',
  'invalid_card',
  'expired_card',
  'lost_or_stolen',
  'processor_unavailable',
  'limit_exceeded',
  'other',
] as const;
export const declineSchema = z.object({
  category: z.enum(DECLINE_CATEGORIES),
  code: z.string(),
  processor_code: z.string().nullable(),
  processor_message: z.string().nullable(),
  advice_code: z.string().nullable(),
  retryable: z.boolean(),
});

const paymentData = z.object({
  payment_id: id,
  /** partially_captured added within v1 (captures with final_capture false). */
  status: z.enum(['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled']),
  amount: z.object({
    requested: z.number().int().nonnegative(),
    authorized: z.number().int().nonnegative().optional(),
    /** The sum of the settled captures. */
    captured: z.number().int().nonnegative().optional(),
    /** The sum of the payment's succeeded refunds (added within v1: absent before a refund succeeded). */
    refunded: z.number().int().nonnegative().optional(),
    /** What can still be captured (added within v1: present once authorized; 0 when nothing can). */
    capturable: z.number().int().nonnegative().optional(),
    /** What refunds the processor has not settled yet hold (added within v1: present with refunded). */
    refund_pending: z.number().int().nonnegative().optional(),
    /** What open or lost chargebacks hold or took (added within v1: present once captured). */
    disputed: z.number().int().nonnegative().optional(),
    /** captured − refunded − disputed: what the merchant keeps (added within v1: present once captured; negative while a chargeback holds a payment already refunded). */
    net: z.number().int().optional(),
  }),
  capture: captureData.optional(),
  currency_code: z.string().length(3),
  use_case: z.string(),
  reference: z.string().nullable(),
  credential_id: z.string().nullable(),
  initial_payment_id: z.string().nullable(),
  flow: z.string().nullable(),
  failure_reason: z.string().nullable(),
  masked_account_number: z.string().nullable(),
  /**
   * Payments of the earlier interface (POST /payments), absent on the newer interface's: which interface
   * created the payment, its customer and the stored method or mandate it used or created. use_case is then
   * the earlier interface's (guest_payment, cof_payment, first_payment, recurring_payment, unscheduled_payment).
   */
  interface: z.enum(['earlier']).optional(),
  customer_id: z.string().nullable().optional(),
  payment_method_id: z.string().nullable().optional(),
  /** A canceled payment: why (added within v1). */
  cancellation_reason: z.enum(['requested_by_merchant', 'authorization_expired']).nullable().optional(),
  /** The 3-D Secure (or 3RI) authentication that ran, once known (added within v1; never the authentication value). */
  authentication: z
    .object({
      type: z.literal('3ds'),
      version: z.string().nullable(),
      status: z.enum(['authenticated', 'attempted', 'failed', 'not_required']),
      eci: z.string().nullable(),
      liability_shift: z.boolean(),
    })
    .optional(),
  decline: declineSchema.optional(),
});

/**
 * Where the consumer must go to authenticate (the issuer's page) and which of the parameters they bring
 * back the processor reads: the hosted page follows the action and passes those parameters on. Not part
 * of the merchant's webhook (the notifier maps the event to the payment's data).
 */
export const consumerActionSchema = z.object({
  type: z.literal('redirect'),
  url: z.string().url(),
  method: z.enum(['GET', 'POST']),
  data: z.record(z.string(), z.string()),
  return_parameters: z.array(z.string().min(1).max(64)).min(1).max(10),
});
export type ConsumerAction = z.infer<typeof consumerActionSchema>;

const paymentEvent = <T extends string>(type: T, description: string) =>
  defineEvent({ type, version: 1, topic: topics.payments, description, schema: paymentData, keyOf: (data) => data.payment_id });

export const paymentProcessingV1 = paymentEvent('payment.processing', 'A payment was accepted and is being processed.');
export const paymentAuthorizedV1 = paymentEvent('payment.authorized', 'A manual-capture payment was authorized and awaits capture.');
export const paymentCapturingV1 = paymentEvent('payment.capturing', 'A capture was requested; capture says which (its amount, whether it is final).');
export const paymentCapturedV1 = paymentEvent(
  'payment.captured',
  'A capture settled (one per capture): amount.captured is the total so far; status is captured once the final capture settled (or the rest was released), partially_captured while more may follow.',
);
export const paymentCaptureFailedV1 = paymentEvent(
  'payment.capture_failed',
  'A manual capture failed (capture.failure_reason); the payment stays authorized (or partially_captured) and can be captured again while its authorization is valid, or canceled.',
);
export const paymentFailedV1 = paymentEvent('payment.failed', 'The payment failed; failure_reason says why.');
export const paymentActionRequiredV1 = defineEvent({
  type: 'payment.action_required',
  version: 1,
  topic: topics.payments,
  description:
    'The consumer must authenticate (3-D Secure): the hosted page takes them to their bank; the payment stays processing until they are back or the session expires.',
  schema: paymentData.extend({ action: consumerActionSchema }),
  keyOf: (data) => data.payment_id,
});
/** One card attempt on the hosted page that failed while the payment can still take another card. */
export const cardAttemptSchema = z.object({
  /** 1 for the session's first card, 2 for the next… */
  number: z.number().int().min(1),
  failure_reason: z.string(),
  masked_account_number: z.string().nullable(),
  /** The 3-D Secure authentication of the attempt, when one ran (never the authentication value). */
  authentication: paymentData.shape.authentication,
  /** The attempt's decline (added within v1; absent for a failed challenge, which is no decline). */
  decline: declineSchema.optional(),
});
export const paymentAttemptFailedV1 = defineEvent({
  type: 'payment.attempt_failed',
  version: 1,
  topic: topics.payments,
  description:
    'A card attempt on the hosted page failed (declined, or its 3-D Secure challenge failed): the payment stays processing and the consumer may try another card in the same session. `attempt` says which card and why.',
  schema: paymentData.extend({ attempt: cardAttemptSchema }),
  keyOf: (data) => data.payment_id,
});
export const paymentCanceledV1 = paymentEvent(
  'payment.canceled',
  'The payment was canceled: its authorization released at the processor, or its checkout session closed before a card was entered; cancellation_reason says why.',
);

const refundData = z.object({
  refund_id: id,
  payment_id: id,
  amount: z.number().int().positive(),
  currency_code: z.string().length(3),
  status: z.enum(['pending', 'succeeded', 'failed']),
  failure_reason: z.string().nullable(),
  reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']).nullable(),
  reference: z.string().nullable(),
  livemode: z.boolean(),
});

const refundEvent = <T extends string>(type: T, description: string) =>
  defineEvent({ type, version: 1, topic: topics.refunds, description, schema: refundData, keyOf: (data) => data.refund_id });

export const refundCreatedV1 = refundEvent('refund.created', 'A refund of a captured payment was created and sent to the processor (pending).');
export const refundSucceededV1 = refundEvent('refund.succeeded', "The processor confirmed the refund; the payment's amount.refunded includes it.");
export const refundFailedV1 = refundEvent(
  'refund.failed',
  'The processor refused or reversed the refund; failure_reason says why, and its amount is refundable again.',
);

const disputeData = z.object({
  dispute_id: id,
  payment_id: id,
  amount: z.number().int().nonnegative(),
  currency_code: z.string().length(3),
  status: z.enum(['needs_response', 'under_review', 'won', 'lost']),
  reason: z.string(),
  processor_reference: z.string(),
  /** The processor account (or `simulator`) that reported it. */
  processor: z.string(),
  /** Added within v1 (absent in older events: a chargeback): an inquiry holds no money, a chargeback does. */
  kind: z.enum(['inquiry', 'chargeback']).optional(),
  /** Added within v1: when the processor stops taking evidence, when it said. */
  evidence_due_by: isoTime.nullable().optional(),
  livemode: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
});

const disputeEvent = <T extends string>(type: T, description: string) =>
  defineEvent({ type, version: 1, topic: topics.disputes, description, schema: disputeData, keyOf: (data) => data.dispute_id });

export const disputeCreatedV1 = disputeEvent('dispute.created', 'A processor reported a chargeback (or an inquiry) on a payment: a dispute was opened.');
export const disputeUpdatedV1 = disputeEvent(
  'dispute.updated',
  "A dispute moved: to needs_response or under_review (a new stage, an inquiry become a chargeback, or the merchant's evidence submitted), or accepted by the merchant (lost; dispute.closed follows).",
);
export const disputeClosedV1 = disputeEvent(
  'dispute.closed',
  'A dispute was decided: status won or lost (a later stage, such as a second chargeback, may open it again).',
);

const earlyFraudWarningData = z.object({
  early_fraud_warning_id: id,
  payment_id: id,
  /** In Stripe's words: card_never_received, fraudulent_card_application, made_with_counterfeit_card, made_with_lost_card, made_with_stolen_card, misc, unauthorized_use_of_card. */
  fraud_type: z.string(),
  actionable: z.boolean(),
  processor_reference: z.string(),
  /** The processor account (or `simulator`) that reported it. */
  processor: z.string(),
  livemode: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
});

const earlyFraudWarningEvent = <T extends string>(type: T, description: string) =>
  defineEvent({ type, version: 1, topic: topics.earlyFraudWarnings, description, schema: earlyFraudWarningData, keyOf: (data) => data.early_fraud_warning_id });

export const earlyFraudWarningCreatedV1 = earlyFraudWarningEvent(
  'early_fraud_warning.created',
  prose(
    "An issuer reported a payment as fraudulent (Stripe's early fraud warning, Adyen's NOTIFICATION_OF_FRAUD: Visa TC40, Mastercard SAFE). Not a dispute: nothing is debited; refunding now may avoid a chargeback.",
  ),
);
export const earlyFraudWarningUpdatedV1 = earlyFraudWarningEvent(
  'early_fraud_warning.updated',
  'An early fraud warning changed: it is no longer actionable (the payment was refunded or disputed), as the processor reports.',
);

/** Every event contract, by type. Consumers validate against it. */
export const eventCatalog = {
  'token.created': tokenCreatedV1,
  'token.deleted': tokenDeletedV1,
  'token.detokenized': tokenDetokenizedV1,
  'checkout.session.opened': checkoutSessionOpenedV1,
  'checkout.session.completed': checkoutSessionCompletedV1,
  'checkout.session.returned': checkoutSessionReturnedV1,
  'checkout.session.abandoned': checkoutSessionAbandonedV1,
  'forward.completed': forwardCompletedV1,
  'import.started': importStartedV1,
  'import.completed': importCompletedV1,
  'import.failed': importFailedV1,
  'payment.processing': paymentProcessingV1,
  'payment.authorized': paymentAuthorizedV1,
  'payment.capturing': paymentCapturingV1,
  'payment.captured': paymentCapturedV1,
  'payment.capture_failed': paymentCaptureFailedV1,
  'payment.failed': paymentFailedV1,
  'payment.action_required': paymentActionRequiredV1,
  'payment.attempt_failed': paymentAttemptFailedV1,
  'dispute.created': disputeCreatedV1,
  'dispute.updated': disputeUpdatedV1,
  'dispute.closed': disputeClosedV1,
  'early_fraud_warning.created': earlyFraudWarningCreatedV1,
  'early_fraud_warning.updated': earlyFraudWarningUpdatedV1,
  'payment.canceled': paymentCanceledV1,
  'refund.created': refundCreatedV1,
  'refund.succeeded': refundSucceededV1,
  'refund.failed': refundFailedV1,
} satisfies Record<string, EventDefinition<string, z.ZodType>>;

export type EventType = keyof typeof eventCatalog;
export type AnyEventDefinition = (typeof eventCatalog)[EventType];

export const allTopics = (): string[] => [...new Set(Object.values(eventCatalog).map((d) => d.topic))];

/** The event types a merchant can subscribe webhooks to. */
/**
 * Internal: token.detokenized (the forwarder's reads), checkout.session.returned (processor-private return
 * parameters), checkout.session.abandoned (the merchant hears payment.failed).
 */
const INTERNAL_EVENT_TYPES: readonly string[] = ['token.detokenized', 'checkout.session.returned', 'checkout.session.abandoned'];
export const merchantEventTypes = Object.keys(eventCatalog).filter((t) => !INTERNAL_EVENT_TYPES.includes(t)) as EventType[];

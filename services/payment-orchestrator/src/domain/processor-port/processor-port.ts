// Processors, as the engine sees them: the plugins in processors/ implement these.
import type { Scope, Mode } from '@vaultline/core';
import type { ProcessorCapabilities } from './processor-lookup';
import type { ProcessorAmounts } from './processor-amounts';
import type {
  ActionRequiredOutcome,
  AuthenticationPreference,
  AuthenticationResult,
  AuthenticationReturn,
  ConsumerAuthentication,
} from '../payment-vocabulary/authentication';
import type { UseCase } from '../payment-vocabulary/use-case';
import type { RefundReason } from '../payment-vocabulary/refund-reason';
import type { DisputeEvidence } from '../payment-vocabulary/dispute-evidence';
import type { Decline } from '../declines/decline';

/**
 * Whether the card details of an authorization are stored credentials, as card schemes define them
 * (processors must flag each case differently):
 * - `none`: a guest payment; the details serve this payment only;
 * - `storing`: the consumer, present, agrees now that the details are kept for later payments (a card
 *   stored for COF payments, earlier rule 2; the initial payment of a recurring or unscheduled series);
 * - `stored`: the details were stored by an earlier payment (a COF payment with a stored card, earlier
 *   rule 3; a mandate made from a stored card, rule 5; every merchant-initiated payment).
 */
export type StoredCredential = 'none' | 'storing' | 'stored';

/**
 * A processor's id: a key of the plugin registry (processors/registry.ts, which derives its ProcessorId
 * type). The engine names no processor: it takes whatever the registry holds.
 */
export type ProcessorId = string;

/** What a processor is told about a payment: no card data, only the token and display data. */
export interface ProcessorPayment {
  payment_id: string;
  merchant_id: string;
  use_case: UseCase;
  /** Whether the card details are none, being or already stored credentials: processors flag each differently. */
  stored_credential: StoredCredential;
  amount: number;
  currency_code: string;
  reference: string | null;
  token_id: string;
  masked_account_number: string;
  scheme: string | null;
  /** Subsequent payments: the reference the initial authorization returned. */
  network_transaction_reference: string | null;
  authentication_preference: AuthenticationPreference | null;
  /** The same for every attempt of one step of one payment, so a repeated call cannot charge twice. */
  idempotency_key: string;
  /** Real processors: what their authorization requests carry beside the token. */
  cardholder_name?: string | null;
  capture_mode?: 'automatic' | 'manual';
  /** Whether the vault still holds the security code (15 minutes after entry). */
  security_code_available?: boolean;
  /** Subsequent payments: the processor's reference of the initial authorization. */
  initial_processor_reference?: string | null;
  /** The key mode the payment runs in (a processor account serves test or live hosts). */
  mode: Mode;
  /** The processor's reference of the payment's authorization (its payment at the processor), once known. */
  authorization_reference?: string | null;
  /** The payment's effective time at the request (the test clock's time for a test-clock payment): the simulator's outage windows are read on it. */
  effective_at?: string;
  /**
   * A manual capture's request: its number on the payment, whether it is the final one (the processor then
   * releases the rest: Stripe final_capture, Checkout.com capture_type Final), what was captured before it
   * and what stays uncaptured after it. Absent on an automatic capture (the whole amount, once).
   */
  capture?: CaptureRequest | null;
  /** A refund's request: the merchant's reason, in the processor's words where it takes one. */
  refund_reason?: RefundReason | null;
  /**
   * Consumer-present authorizations with a hosted page: the step's three_ds setting, the consumer's browser,
   * the way back, whether the card is being stored for a series. Absent otherwise (merchant-initiated).
   */
  consumer_authentication?: ConsumerAuthentication | null;
  /**
   * An authentication that already ran for this payment (the 3RI step of a merchant-initiated payment, or
   * a 3-D Secure step), for the authorization to carry (ECI, authentication value, DS transaction id).
   */
  authentication_result?: AuthenticationResult | null;
}

export interface CaptureRequest {
  sequence: number;
  final: boolean;
  captured_before: number;
  /** The authorized amount left uncaptured once this capture settles (a final capture releases it). */
  uncaptured_after: number;
}

export type StepOutcome =
  /**
   * `authentication`: the authentication that ran in this step (3-D Secure with the authorization, or 3RI), recorded on the payment.
   * `issuer_country`: the card's country of issue when the processor reports it (ISO 3166-1 alpha-2): part of the routing segment.
   */
  | {
      status: 'succeeded';
      processor_reference: string | null;
      network_transaction_reference?: string | null;
      authentication?: AuthenticationResult | null;
      issuer_country?: string | null;
    }
  /** `decline`: an authorization's decline as the plugin's table maps it (`<id>.declines.ts`); absent, the engine derives it from failure_reason. */
  | {
      status: 'failed';
      failure_reason: string;
      processor_reference: string | null;
      authentication?: AuthenticationResult | null;
      decline?: Decline;
      issuer_country?: string | null;
    }
  /** Retryable: the processor could not answer (5xx, timeout); a flow may fall back to another processor. */
  | { status: 'error'; failure_reason: string };

/**
 * An authorization's answer: a step outcome, or "the consumer must authenticate" (consumer-present payments
 * with `consumer_authentication` only). A 3-D Secure that failed is a `failed` outcome with failure_reason
 * `authentication_failed` and its `authentication` (status failed): the engine then records no
 * authorization transaction.
 */
export type AuthorizationOutcome = StepOutcome | ActionRequiredOutcome;

/** A capture may settle later: the engine asks again after `poll_after_ms` (or a processor's notification settles it). */
export type CaptureOutcome = StepOutcome | { status: 'pending'; processor_reference: string; poll_after_ms: number };

export interface ProcessorConnection {
  readonly id: ProcessorId;
  readonly capabilities: ProcessorCapabilities;
  /** The amounts it takes (its plugin's declaration, attached where connections are opened); absent: ISO minor units, no limits. */
  readonly amounts?: ProcessorAmounts;
  assessRisk?(payment: ProcessorPayment): Promise<StepOutcome>;
  authenticate3ri?(payment: ProcessorPayment): Promise<StepOutcome>;
  authorize(payment: ProcessorPayment): Promise<AuthorizationOutcome>;
  /**
   * The consumer came back from the action an authorization asked for: settle the authorization
   * (Adyen POST /payments/details with redirectResult, Checkout.com GET /payments/{cko-session-id}).
   * `payment` is the authorization's request again (same idempotency key; resumed after a crash, it is sent
   * again). Connections that declare `authentication3ds` implement it.
   */
  resumeAuthorization?(payment: ProcessorPayment, returned: AuthenticationReturn): Promise<AuthorizationOutcome>;
  capture(payment: ProcessorPayment, authorizationReference: string | null): Promise<CaptureOutcome>;
  captureStatus(payment: ProcessorPayment, captureReference: string): Promise<CaptureOutcome>;
  /** Releases an authorization: one the payment does not use (a late answer after a fallback), or the payment's own on cancel (after partial captures: what is left of it). */
  voidAuthorization?(payment: ProcessorPayment, authorizationReference: string): Promise<StepOutcome>;
  /**
   * Only for a processor whose final capture does not release the rest of the authorization by itself
   * (Adyen with multiple partial captures enabled on the account): the engine calls it once a final capture
   * that left something uncaptured settled. `payment.amount` is what is released.
   */
  releaseRemainder?(payment: ProcessorPayment, authorizationReference: string): Promise<StepOutcome>;
  /**
   * Processors that can be asked (Checkout.com): how an action they took asynchronously settled, when no
   * notification has said so yet — the settlement sweep. `payment_reference` is the processor's payment
   * (the authorization reference), `action_reference` the action's id when known. Null while the processor
   * lists no outcome; an `error` outcome when it could not be asked (keep waiting). Captures use it; refunds
   * and voids plug in with their kind.
   */
  settleAction?(payment: ProcessorPayment, action: SettleableAction): Promise<StepOutcome | null>;
  /**
   * Real processors: a void's or a refund's success means "accepted", confirmed later by notification
   * (Adyen CANCELLATION / REFUND, Checkout.com payment_voided / payment_refunded). A canceled payment then
   * shows canceling until it arrives; a refund stays pending (and the notification may overtake the answer).
   */
  readonly settlesByNotification?: boolean;
  /** Gives back part or all of a captured payment; `payment.amount` is the refund's amount, its idempotency key the refund's. */
  refund?(payment: ProcessorPayment, authorizationReference: string | null, refundId: string): Promise<RefundOutcome>;
  /** How a sent refund settled (the simulator's answer, or the processor's notification); pending while neither says. */
  refundStatus?(payment: ProcessorPayment, refundReference: string): Promise<RefundOutcome>;
  /** Accepts a dispute at the processor (it is then lost): Stripe's close, Adyen's acceptDispute, Checkout.com's accept. */
  acceptDispute?(dispute: ProcessorDispute): Promise<DisputeActionOutcome>;
  /** Sends the merchant's evidence for a dispute (uploading its files first) and, when `submit`, submits it for review. */
  submitDisputeEvidence?(dispute: ProcessorDispute, evidence: DisputeEvidence): Promise<DisputeActionOutcome>;
}

/** What a processor is told about a dispute the merchant answers: its identity there, never card data. */
export interface ProcessorDispute {
  dispute_id: string;
  merchant_id: string;
  /** The dispute's mode: a test dispute never reaches a live host. */
  mode: Mode;
  /** The processor's id of the dispute (Stripe's dp_, Checkout.com's dsp_, Adyen's dispute pspReference). */
  processor_reference: string;
  /** The processor's reference of the disputed payment's authorization, when known. */
  payment_reference: string | null;
  /** The request's idempotency key (the calls of one answer derive theirs from it). */
  idempotency_key: string;
}

/**
 * A merchant's answer to a dispute, at the processor: taken (`succeeded`); refused by the processor
 * (`refused`, its message in `detail`: the dispute is not in a state it can take it in, say); not
 * takeable by this processor's API at all (`unsupported`: nothing was sent, `field` names what it cannot
 * take); or not reached (`error`: a timeout or a 5xx, try again).
 */
export type DisputeActionOutcome =
  | { status: 'succeeded' }
  | { status: 'refused'; detail: string }
  | { status: 'unsupported'; field: string; detail: string }
  | { status: 'error'; failure_reason: string };

export interface SettleableAction {
  kind: 'capture' | 'refund' | 'void';
  payment_reference: string;
  action_reference: string | null;
}

/** A refund's answer: settled at once, pending until asked again (or notified), or not sent (retryable). */
export type RefundOutcome =
  | { status: 'succeeded'; processor_reference: string | null }
  | { status: 'failed'; failure_reason: string; processor_reference: string | null }
  | { status: 'error'; failure_reason: string }
  | { status: 'pending'; processor_reference: string; poll_after_ms: number };

/** The processors a payment may use, by id (a ProcessorLookup with connections). */
export interface Processors {
  get(id: string): ProcessorConnection | undefined;
  ids(): readonly string[];
}

/**
 * A processor's verified notification, recorded, handed to the payment or refund it settles: the connection
 * of its account answers a capture's or refund's status from it rather than reading the record back.
 */
export interface NotifiedEvent {
  account_id: string;
  kind: string;
  processor_reference: string | null;
  capture_reference: string | null;
  failure_reason: string | null;
}

/**
 * The processors a merchant's flows may name, opened for a key mode: the built-in ones and its processor
 * accounts (by account id). `notified`: a notification that just arrived, which the account's connection
 * answers a settlement from.
 */
export type ProcessorDirectory = (scope: Scope, mode: Mode, notified?: NotifiedEvent) => Promise<Processors>;

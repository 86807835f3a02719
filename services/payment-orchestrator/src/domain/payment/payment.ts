import type { StoredCardOffer } from '@vaultline/contracts';
import type { Mode } from '@vaultline/core';
import type { StepKind } from '../flows/flow';
import type { FlowDecision } from '../flows/flow-catalog';
import { shownUseCaseOf, type EarlierPayment } from '../earlier/earlier-payment';
import type { AuthenticationPreference, AuthenticationResult, BrowserInfo, PendingAuthentication } from '../payment-vocabulary/authentication';
import type { CardSource } from '../payment-vocabulary/card-source';
import type { Decline } from '../declines/decline';
import type { InitialAuthorization } from '../credentials/credential';
import type { PaymentRouting } from '../routing/payment-routing';
import { isConsumerPresent, type UseCase } from '../payment-vocabulary/use-case';

/**
 * `partially_captured`: a manual-capture payment with one or more captures settled and more to come
 * (`final_capture: false`); the rest of its authorization stays held until a final capture, a cancel or
 * the authorization's expiry releases it.
 */
export type PaymentStatus = 'processing' | 'authorized' | 'capturing' | 'partially_captured' | 'captured' | 'failed' | 'canceling' | 'canceled';
export type CancellationReason = 'requested_by_merchant' | 'authorization_expired';

export interface CheckoutSessionRef {
  id: string;
  expires_at: string;
  return_url: string | null;
  /** Who may frame the hosted page and hear its messages; absent on payments created before it existed. */
  allowed_origins?: string[];
  /** The order line the hosted page shows under the amount; absent when the merchant gave none. */
  description?: string;
  /** The hosted page's language; absent: the consumer's browser decides. */
  locale?: string;
  /** A stored card the consumer confirms instead of entering one (earlier interface, rules 3 and 5). */
  stored_card?: StoredCardSession;
  /** The consumer's browser as the hosted page reported it with the card (3-D Secure 2); absent before. */
  browser?: BrowserInfo | null;
  /** The hosted page's address (`action_requirement.checkout_url`); absent on payments created before it existed. */
  checkout_url?: string;
  /** The merchant's name when the payment was made: the hosted page shows it unless the shop set a display name. */
  merchant_name?: string | null;
}

/** What the hosted page shows of a stored card, and whether it asks for the security code (the event's shape). */
export type StoredCardSession = StoredCardOffer;

export interface PendingCapture {
  amount: number;
  reference: string | null;
  processor_reference: string | null;
  /** Ambiguous answers (timeout, 5xx) so far: the capture is sent again with the same idempotency key (domain/payment/capture-retry.ts). */
  ambiguous_attempts?: number;
  /**
   * Manual captures: whether this capture is the last one, after which the processor releases what is left
   * of the authorization (absent: true, as every capture was before several were possible).
   */
  final?: boolean;
  /** The capture's number on the payment, from 1 (absent: 1); it names its idempotency key (captureStepOf). */
  sequence?: number;
  /** How often the processor was asked about it without a final word: each question waits longer (settlement-backoff.ts). */
  status_checks?: number;
}

/**
 * Where the flow runner stands. `next_step` indexes flow.steps; a payment is resumed from here after
 * a crash (the step in flight is sent again, with the same idempotency key).
 */
export interface FlowProgress {
  next_step: number;
  /** The processor that authorized: the capture goes to it whatever the capture step names. */
  authorized_by: string | null;
  authorization_reference: string | null;
  /** The capture under way (sent, or to be sent); null when none is (manual captures clear it once it settled or failed). */
  capture: PendingCapture | null;
  /** Manual captures requested so far, settled, failed or under way (absent: none): the next one's sequence. */
  captures?: number;
  /**
   * Manual captures the processor reported failed, with their reference there: one it then reports
   * captured after all (Adyen's own recapture after a technical CAPTURE_FAILED) is settled late (settle-late-capture.ts).
   */
  failed_captures?: PendingCapture[];
  /** Processor transactions recorded so far (the next one's sequence). */
  transactions: number;
}

export interface Payment {
  id: string;
  merchant_id: string;
  version: number;
  mode: Mode;
  use_case: UseCase;
  status: PaymentStatus;
  amount: { requested: number; authorized?: number; captured?: number; refunded?: number };
  currency_code: string;
  reference: string | null;
  metadata: Record<string, string> | null;
  created_at: string;
  updated_at: string;
  session: CheckoutSessionRef | null;
  credential_id: string | null;
  initial_payment_id: string | null;
  authentication_preference: AuthenticationPreference | null;
  recurring_frequency: number | null;
  recurring_expiry: string | null;
  source: CardSource | null;
  /** Routing data of the card (matrix `scheme` condition); not part of the merchant's source view. */
  card_scheme: string | null;
  /** The vault token of the card: processors reach the card through the forwarder with it. */
  token_id: string | null;
  network_transaction_reference: string | null;
  decision: FlowDecision | null;
  progress: FlowProgress;
  /** When the background worker must look at the payment next (session expiry, a step, a capture's settlement); null when nothing is due. */
  next_run_at: string | null;
  failure_reason: string | null;
  /** When the consumer submitted the card on the hosted page (a mandate's acceptance time); absent before. */
  card_submitted_at?: string | null;
  /** Payments created through the earlier interface (POST /payments); absent on the newer interface's. */
  earlier?: EarlierPayment;
  /**
   * Consumer-present payments: when the vault lets the card's security code go (15 minutes after it stored
   * it, by the time checkout.session.completed reports). Absent on payments that never had one.
   */
  security_code_expires_at?: string | null;
  /** Subsequent payments: the processor account that authorized the initial payment, and its reference there. */
  initial_authorization?: InitialAuthorization | null;
  /**
   * Test clock (X-Test-Now on a test key): how far the payment's effective time is from the real time,
   * fixed at creation. Every time stamp of the payment (its transactions, its events, updated_at) is the
   * real time moved by it; absent on payments made without the header.
   */
  test_clock_offset_ms?: number;
  /** Manual-capture payments: when the authorization was made (its validity runs from here); absent before. */
  authorized_at?: string | null;
  /** A canceling or canceled payment: why, and how its authorization's release went. */
  cancellation?: Cancellation | null;
  /** The sum of pending refunds: reserved, so concurrent refunds never exceed the captured amount. */
  refunds_pending?: number;
  /**
   * The payment's disputes that hold its money (open or lost chargebacks), by dispute id: the amount each
   * holds. Written in the dispute's commit (compare-and-set on the payment), so a refund and a chargeback
   * cannot pass each other. Absent: none ever held.
   */
  dispute_holds?: Record<string, number>;
  /**
   * Search fields (top level, so each store adapter indexes them): the customer of an earlier-interface
   * payment, and the use case in the words of the interface that created it. Absent on older payments.
   */
  customer_id?: string | null;
  shown_use_case?: string;
  /**
   * Search field: `<account>:<reference>` of the authorization that the payment uses (Stripe's PaymentIntent
   * id, Adyen's pspReference, Checkout.com's pay_ id), so a processor's notification that names only its
   * own payment finds ours. Absent until authorized (and on payments not written since it exists).
   */
  authorization_key?: string | null;
  /** The authentication that ran for the payment (3-D Secure, or 3RI), once known; absent when none ran. */
  authentication?: AuthenticationResult | null;
  /**
   * Consumer-present payments: how many cards the consumer entered on the hosted page (the current or last
   * card's attempt number); absent before the first. See domain/payment/card-attempts.ts.
   */
  card_attempts?: number;
  /** The latest card attempt that failed while another card could still be tried; absent when none did. */
  last_failed_attempt?: FailedCardAttempt | null;
  /** While the consumer is away authenticating (the payment stays processing); null otherwise. */
  pending_authentication?: PendingAuthentication | null;
  /** A payment failed by a declined (or unanswered) authorization: the decline, normalised (domain/declines/decline.ts). */
  decline?: Decline | null;
  /** Why each authorization attempt went where it went (domain/routing/payment-routing.ts); absent before the first. */
  routing?: PaymentRouting | null;
  /** The card's country of issue (ISO 3166-1 alpha-2) once a processor reported it: part of the routing segment; never shown. */
  card_country?: string | null;
}

/** A card that failed on the hosted page (declined, or its 3-D Secure challenge failed): what the merchant may see of it. */
export interface FailedCardAttempt {
  number: number;
  failure_reason: string;
  masked_account_number: string | null;
  failed_at: string;
  /** Its 3-D Secure authentication, when one ran. */
  authentication?: AuthenticationResult | null;
  /** The decline that ended the attempt (absent for a failed challenge, which is no decline). */
  decline?: Decline | null;
}

export interface Cancellation {
  reason: CancellationReason;
  /** The merchant's reference of the cancel request. */
  reference: string | null;
  requested_at: string;
  /** The void's reference at the processor once it accepted it (confirmed later by notification when canceling). */
  void_reference: string | null;
  /** A canceling payment: when the after-sale worker sends the void again if it is still unconfirmed (same idempotency key). */
  void_retry_at: string | null;
}

/** The payment's effective time for a real moment: the test clock's time for a test-clock payment, else the moment itself. */
export function effectiveTime(payment: Pick<Payment, 'test_clock_offset_ms'>, now: Date): Date {
  return payment.test_clock_offset_ms ? new Date(now.getTime() + payment.test_clock_offset_ms) : now;
}

/** The vault keeps a security code this long after storing it (PCI DSS 3.3; its TTL store drops it then). */
const SECURITY_CODE_LIFETIME_MS = 15 * 60_000;
/**
 * Sent only while at least this much of the lifetime is left: the vault's clock and ours may differ a
 * little, and the forwarder reads the code a moment after we decide.
 */
const SECURITY_CODE_MARGIN_MS = 30_000;

export function securityCodeExpiresAt(storedAt: string): string {
  return new Date(Date.parse(storedAt) + SECURITY_CODE_LIFETIME_MS).toISOString();
}

/** Whether an authorization may ask the forwarder for the security code now (merchant-initiated payments never do). */
export function isSecurityCodeAvailable(payment: Pick<Payment, 'use_case' | 'security_code_expires_at'>, now: Date): boolean {
  if (!isConsumerPresent(payment.use_case) || !payment.security_code_expires_at) return false;
  return now.getTime() < Date.parse(payment.security_code_expires_at) - SECURITY_CODE_MARGIN_MS;
}

export interface ProcessorTransaction {
  id: string;
  merchant_id: string;
  /** The payment's mode. */
  mode: Mode;
  version: number;
  payment_id: string;
  /** Order within the payment (0, 1, …). */
  sequence: number;
  processor: string;
  /** `authentication_3ds`: a 3-D Secure authentication of the consumer (its status: succeeded for authenticated or attempted). */
  /** `void`: an authorization released (one the payment does not use, or the payment's own on cancel; its reference is the authorization's). */
  kind: StepKind | 'void' | 'authentication_3ds';
  status: 'succeeded' | 'failed' | 'error';
  failure_reason: string | null;
  amount: number | null;
  processor_reference: string | null;
  /** The use case the processor was sent, in the words of the payment's interface; absent on older records. */
  use_case?: string;
  /** Consumer-present payments: the card attempt (1, 2, …) the transaction belongs to; absent on older records and merchant-initiated payments. */
  attempt?: number;
  /** A failed or unanswered authorization: its decline, normalised; absent on other transactions and older records. */
  decline?: Decline | null;
  created_at: string;
}

export function isFinal(status: PaymentStatus): boolean {
  return status === 'captured' || status === 'failed' || status === 'canceled';
}

/**
 * What the merchant may still capture (`amount.capturable`): the authorization of a manual-capture payment
 * that is authorized, partially captured or capturing, less what was captured and what the capture under
 * way takes (all of it when that capture is final). 0 for any other payment.
 */
export function capturableAmount(payment: Pick<Payment, 'status' | 'amount' | 'decision' | 'progress'>): number {
  if (payment.decision?.flow.capture_mode !== 'manual') return 0;
  if (payment.status !== 'authorized' && payment.status !== 'partially_captured' && payment.status !== 'capturing') return 0;
  const left = uncapturedAmount(payment);
  const underWay = payment.status === 'capturing' ? payment.progress.capture : null;
  if (!underWay) return left;
  return underWay.final === false ? Math.max(0, left - underWay.amount) : 0;
}

/** The authorized amount not captured (yet): what a final capture or a cancel releases at the processor. */
export function uncapturedAmount(payment: Pick<Payment, 'amount'>): number {
  return Math.max(0, (payment.amount.authorized ?? 0) - (payment.amount.captured ?? 0));
}

/** The step name of a manual capture (its idempotency key is `<payment>:<step>`): the first keeps the key captures always had. */
export function captureStepOf(sequence: number | undefined): string {
  return !sequence || sequence <= 1 ? 'capture' : `capture:${sequence}`;
}

/**
 * Whether a refund may be asked for: money was captured (a captured payment, or a partially captured one,
 * also while its next capture or the release of its rest is under way). A refund takes at most what was captured.
 */
export function hasCapturedMoney(payment: Pick<Payment, 'status' | 'amount'>): boolean {
  if (payment.status === 'captured') return true;
  const someCaptured = (payment.amount.captured ?? 0) > 0;
  return someCaptured && (payment.status === 'partially_captured' || payment.status === 'capturing' || payment.status === 'canceling');
}

/** The amount a new refund may still take: captured, less succeeded and pending refunds. */
export function refundableAmount(payment: Pick<Payment, 'amount' | 'refunds_pending'>): number {
  return (payment.amount.captured ?? 0) - (payment.amount.refunded ?? 0) - (payment.refunds_pending ?? 0);
}

/** `amount.disputed`: what open or lost chargebacks hold or took of the payment. */
export function disputedAmount(payment: Pick<Payment, 'dispute_holds'>): number {
  return Object.values(payment.dispute_holds ?? {}).reduce((sum, amount) => sum + amount, 0);
}

/** Whether a chargeback holds or took the payment's money: then it is not refunded (the cardholder would be paid twice). */
export function isDisputed(payment: Pick<Payment, 'dispute_holds'>): boolean {
  return Object.keys(payment.dispute_holds ?? {}).length > 0;
}

/** `amount.net`: what the merchant keeps, captured less refunded less disputed (negative when a refunded payment is also charged back). */
export function netAmount(payment: Pick<Payment, 'amount' | 'dispute_holds'>): number {
  return (payment.amount.captured ?? 0) - (payment.amount.refunded ?? 0) - disputedAmount(payment);
}

/**
 * The payment's amounts as the API and its events tell them: requested, authorized (with capturable) and
 * captured as they happen; refunded from the first refund on (the sum of the succeeded refunds) and with it
 * refund_pending (the refunds the processor has not settled yet); once captured, disputed (what open or lost
 * chargebacks hold or took) and net (captured − refunded − disputed: what the merchant keeps).
 */
export function shownAmounts(payment: Payment): Payment['amount'] & { capturable?: number; refund_pending?: number; disputed?: number; net?: number } {
  return {
    ...payment.amount,
    ...(payment.amount.authorized !== undefined ? { capturable: capturableAmount(payment) } : {}),
    ...(payment.amount.refunded !== undefined ? { refund_pending: payment.refunds_pending ?? 0 } : {}),
    ...(payment.amount.captured !== undefined ? { disputed: disputedAmount(payment), net: netAmount(payment) } : {}),
  };
}

/** The payment with one dispute's hold set (`amount`) or released (null), pure; the same object when nothing changes. */
export function withDisputeHold(payment: Payment, disputeId: string, amount: number | null): Payment {
  const holds = payment.dispute_holds ?? {};
  if ((amount === null && !(disputeId in holds)) || (amount !== null && holds[disputeId] === amount)) return payment;
  const { [disputeId]: _released, ...others } = holds;
  return { ...payment, dispute_holds: amount === null ? others : { ...others, [disputeId]: amount } };
}

/** The search fields a payment is written with (recomputed on every write, so they always match the payment). */
export function searchFieldsOf(
  payment: Pick<Payment, 'earlier' | 'use_case'> & { progress?: Payment['progress'] },
): Pick<Payment, 'customer_id' | 'shown_use_case' | 'authorization_key'> {
  return {
    customer_id: payment.earlier?.customer?.id ?? null,
    shown_use_case: shownUseCaseOf(payment),
    authorization_key: authorizationKey(payment.progress?.authorized_by ?? null, payment.progress?.authorization_reference ?? null),
  };
}

/** The search key of an authorization at a processor account (null while either part is unknown). */
export function authorizationKey(account: string | null, reference: string | null): string | null {
  return account && reference ? `${account}:${reference}` : null;
}

import type { Clock, Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { Credential } from './credentials/credential';
import type { Customer } from './customers/customer';
import type { PaymentMethod } from './customers/payment-method';
import type { Flow } from './flows/flow';
import type { FlowMatrix } from './flows/flow-matrix';
import type { AuthenticationPreference, Mode, Payment, PaymentStatus, ProcessorTransaction, UseCase } from './payment/payment';
import type { ActionRequiredOutcome, AuthenticationResult, AuthenticationReturn, ConsumerAuthentication } from './payment/authentication';
import type { AccountProcessor, ProcessorAccount, ProcessorAccountSettings } from './processor-accounts/processor-account';
import type { ProcessorNotificationRecord } from './processor-accounts/processor-notification';
import type { StoredCredential } from './payment/stored-credential';
import type { Refund, RefundReason, RefundStatus } from './refunds/refund';

export type { Clock };

export type { TransactionRunner } from '@vaultline/store';

export interface DuePayment {
  scope: Scope;
  paymentId: string;
}

export interface PaymentRepository {
  get(scope: Scope, id: string): Promise<Payment | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<Payment>>;
  /** Background worker: payments of every merchant whose next_run_at is due. */
  listDue(now: Date, limit: number): Promise<DuePayment[]>;
  insert(uow: UnitOfWork, payment: Omit<Payment, 'version'>): Payment;
  /** Compare-and-set on the version the payment was read with: two concurrent moves cannot both commit. */
  update(uow: UnitOfWork, payment: Payment): Payment;
  /**
   * A payment already final (captured) whose refund totals change: compare-and-set on its version like
   * update, without touching the worker's schedule (a final payment has no entry there).
   */
  updateSettled(uow: UnitOfWork, payment: Payment): Payment;
  /** GET /payments with filters (combinable), newest first by default. */
  search(scope: Scope, filters: PaymentSearch, page: PageRequest): Promise<Page<Payment>>;
  /** Background: payments of every merchant in this status whose authorization was made at or before `authorizedBefore`. */
  listAuthorizedBefore(status: 'authorized' | 'canceling', authorizedBefore: Date, limit: number): Promise<DuePayment[]>;
}

export interface PaymentSearch {
  status?: PaymentStatus;
  reference?: string;
  customer_id?: string;
  /** Either interface's words (ONE_OFF …, guest_payment …). */
  use_case?: string;
  created_gte?: string;
  created_lte?: string;
}

export interface RefundSearch {
  status?: RefundStatus;
  payment_id?: string;
}

export interface RefundRepository {
  get(scope: Scope, id: string): Promise<Refund | null>;
  /** Every refund of one payment, oldest first (a payment has a handful). */
  listForPayment(scope: Scope, paymentId: string): Promise<Refund[]>;
  search(scope: Scope, filters: RefundSearch, page: PageRequest): Promise<Page<Refund>>;
  /** A refund by the processor's reference of it (a notification that names no refund id). */
  findByProcessorReference(scope: Scope, processorReference: string): Promise<Refund | null>;
  /** Background: refunds of every merchant whose next_run_at is due. */
  listDue(now: Date, limit: number): Promise<Array<{ scope: Scope; refundId: string }>>;
  insert(uow: UnitOfWork, refund: Omit<Refund, 'version'>): Refund;
  /** Compare-and-set on the version the refund was read with. */
  update(uow: UnitOfWork, refund: Refund): Refund;
}

export interface TransactionRepository {
  listForPayment(scope: Scope, paymentId: string): Promise<ProcessorTransaction[]>;
  /** Transactions of one kind recorded in [startsAt, endsBefore), a page at a time (reports). */
  listInPeriod(scope: Scope, filter: { kind: ProcessorTransaction['kind']; startsAt: string; endsBefore: string }, page: PageRequest): Promise<Page<ProcessorTransaction>>;
  insert(uow: UnitOfWork, transaction: Omit<ProcessorTransaction, 'version'>): ProcessorTransaction;
}

export interface CredentialRepository {
  get(scope: Scope, id: string): Promise<Credential | null>;
  insert(uow: UnitOfWork, credential: Omit<Credential, 'version'>): Credential;
  update(uow: UnitOfWork, credential: Credential): Credential;
}

/** Earlier interface: a merchant's customers. */
export interface CustomerRepository {
  get(scope: Scope, id: string): Promise<Customer | null>;
  list(scope: Scope, page: PageRequest): Promise<Page<Customer>>;
  insert(uow: UnitOfWork, customer: Omit<Customer, 'version'>): Customer;
}

/** Earlier interface: stored cards and NPR mandates. */
export interface PaymentMethodRepository {
  get(scope: Scope, id: string): Promise<PaymentMethod | null>;
  /** A customer's methods that are not revoked. */
  listForCustomer(scope: Scope, customerId: string, page: PageRequest): Promise<Page<PaymentMethod>>;
  insert(uow: UnitOfWork, method: Omit<PaymentMethod, 'version'>): PaymentMethod;
  /** Compare-and-set on the version the method was read with. */
  update(uow: UnitOfWork, method: PaymentMethod): PaymentMethod;
}

export interface FlowRepository {
  /** Merchant-defined flows only (the built-in ones live in code). */
  get(scope: Scope, name: string): Promise<Flow | null>;
  /** Every one of them, however many were stored (earlier versions had no limit). */
  list(scope: Scope): Promise<Flow[]>;
  count(scope: Scope): Promise<number>;
  insert(uow: UnitOfWork, scope: Scope, flow: Flow): void;
}

export interface FlowMatrixRepository {
  /** The newest version, or null when the merchant never set one. */
  current(scope: Scope): Promise<FlowMatrix | null>;
  /** Inserts a new version; a concurrent insert of the same version fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, scope: Scope, matrix: FlowMatrix): void;
}

// --- Processors, as the engine sees them (the plugins in processors/ implement this) ---

/**
 * A processor's id: a key of the plugin registry (processors/registry.ts, which derives its ProcessorId
 * type). The engine names no processor: it takes whatever the registry holds.
 */
export type ProcessorId = string;

export interface ProcessorCapabilities {
  authorize: boolean;
  capture: boolean;
  partialCapture: boolean;
  authentication3ri: boolean;
  risk: boolean;
  /** Merchant-initiated unscheduled payments as such (else they are sent as recurring). */
  explicitUnscheduledMit: boolean;
  /**
   * 3-D Secure for consumer-present authorizations: the connection honours `consumer_authentication`,
   * may answer action_required and implements resumeAuthorization. A flow whose authorization step says
   * `three_ds: always` needs it of every processor of the step.
   */
  authentication3ds: boolean;
  /** The key modes the processor may serve: the simulator serves test only. */
  modes: readonly Mode[];
}

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
  /** Real processors (part 2): what their authorization requests carry beside the token. */
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

export type StepOutcome =
  /** `authentication`: the authentication that ran in this step (3-D Secure with the authorization, or 3RI), recorded on the payment. */
  | { status: 'succeeded'; processor_reference: string | null; network_transaction_reference?: string | null; authentication?: AuthenticationResult | null }
  | { status: 'failed'; failure_reason: string; processor_reference: string | null; authentication?: AuthenticationResult | null }
  /** Retryable: the processor could not answer (5xx, timeout); a flow may fall back to another processor. */
  | { status: 'error'; failure_reason: string };

/**
 * An authorization's answer: a step outcome, or "the consumer must authenticate" (consumer-present payments
 * with `consumer_authentication` only). A 3-D Secure that failed is a `failed` outcome with failure_reason
 * `authentication_failed` and its `authentication` (status failed): the engine then records no
 * authorization transaction.
 */
export type AuthorizationOutcome = StepOutcome | ActionRequiredOutcome;

/** A capture may settle later: the engine asks again after `poll_after_ms` (or a notification settles it, part 2). */
export type CaptureOutcome = StepOutcome | { status: 'pending'; processor_reference: string; poll_after_ms: number };

export interface ProcessorConnection {
  readonly id: ProcessorId;
  readonly capabilities: ProcessorCapabilities;
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
  /** Releases an authorization: one the payment does not use (a late answer after a fallback), or the payment's own on cancel. */
  voidAuthorization?(payment: ProcessorPayment, authorizationReference: string): Promise<StepOutcome>;
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
}

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

export interface Processors {
  get(id: string): ProcessorConnection | undefined;
  ids(): readonly string[];
}

/** The processors a merchant's flows may name, opened for a key mode: the built-in ones and its processor accounts (by account id). */
export type ProcessorDirectory = (scope: Scope, mode: Mode) => Promise<Processors>;

// --- Processor accounts ---

export type { SecretSealer } from '@vaultline/crypto';

export interface ProcessorAccountRepository {
  get(scope: Scope, id: string): Promise<ProcessorAccount | null>;
  /** Notifications name the account, not the merchant (they carry no API key). */
  getGlobal(id: string): Promise<ProcessorAccount | null>;
  /** Oldest first, at most `limit`. */
  list(scope: Scope, limit: number): Promise<ProcessorAccount[]>;
  insert(uow: UnitOfWork, account: Omit<ProcessorAccount, 'version'>): ProcessorAccount;
  /** Compare-and-set on the version the account was read with. */
  update(uow: UnitOfWork, account: ProcessorAccount): ProcessorAccount;
  delete(uow: UnitOfWork, account: ProcessorAccount): void;
}

/** What each processor plugin says of its accounts (the plugins in processors/ implement it). */
export interface ProcessorAccountPolicy {
  /** The processors an account may be opened at (the registry's ids). */
  processors(): readonly string[];
  /** A problem names the field (`credentials.api_key`); on success, the masked hint of the main secret. */
  validateCredentials(processor: AccountProcessor, credentials: unknown): { ok: true; hint: string | null } | { ok: false; field: string; detail: string };
  /** Whether the processor takes each setting given beyond base_url; a problem names the field. */
  validateSettings(processor: AccountProcessor, settings: ProcessorAccountSettings): { ok: true } | { ok: false; field: string; detail: string };
  /** The settings as a merchant sees them (the processor's defaults filled in). */
  settingsView(processor: AccountProcessor, settings: ProcessorAccountSettings): ProcessorAccountSettings;
  /** The payments URL under a base URL: what the forwarder would be asked to reach. */
  paymentsUrl(processor: AccountProcessor, baseUrl: string): string;
}

/** Whether a payments URL is an allowed forward destination for the merchant. */
export type ProcessorDestinationCheck = (scope: Scope, paymentsUrl: string) => Promise<boolean>;

export interface ProcessorNotificationRepository {
  /** A second accepted record with the same account and dedupe key fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, record: Omit<ProcessorNotificationRecord, 'version'>): void;
  list(scope: Scope, accountId: string, limit: number): Promise<ProcessorNotificationRecord[]>;
  /** The accepted capture event (succeeded or failed) of an account naming this capture or payment reference. */
  findCaptureEvent(scope: Scope, accountId: string, reference: string): Promise<ProcessorNotificationRecord | null>;
  /** The accepted event of one of these kinds whose action reference (capture_reference) is this one (a refund's, a void's). */
  findActionEvent(scope: Scope, accountId: string, actionReference: string, kinds: readonly string[]): Promise<ProcessorNotificationRecord | null>;
}

import { ValidationError, newCapabilityId, newId, type Scope, type Mode } from '@vaultline/core';
import { calendarDay, type Credential } from '../credentials/credential';
import { decideFlow, type FlowCatalogPorts } from '../flows/flow-catalog';
import { authorizersTaking, usesSimulator } from '../flows/flow';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import type { EarlierPayment } from '../earlier/earlier-payment';
import type { Payment, StoredCardSession } from './payment';
import type { FlowDecision } from '../flows/flow-catalog';
import type { UseCase } from '../payment-vocabulary/use-case';
import { checkoutSessionOpenedEvent, paymentMovedEvent } from './payment-events';
import { SimulatorNotAllowedInLiveMode } from './payment-errors';
import { paymentOfEarlierRequest, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from './payment-requests';
import type { Clock } from '@vaultline/core';
import type { CredentialRepository } from '../credentials/credential-ports';
import type { PaymentRepository } from './payment-ports';
import type { TransactionRunner } from '@vaultline/store';

export interface CreatePaymentPorts extends FlowCatalogPorts, PaymentRequestPorts {
  payments: PaymentRepository;
  credentials: CredentialRepository;
  transaction: TransactionRunner;
  clock: Clock;
  /** How long the consumer has to enter the card (PAYMENT_SESSION_LIFETIME). */
  sessionLifetimeMs: number;
  /** The merchant's processors: an amount no processor of the authorization step can take is refused at creation. */
  directory?: ProcessorDirectory;
  /** The hosted page of a session (PUBLIC_BASE_URL/checkout/{session_id}); absent: the payment shows none. */
  checkoutUrlOf?: (sessionId: string) => string;
}

export interface CreatePaymentCommand {
  mode: Mode;
  /** The merchant's name, for the hosted page (from the gateway's internal token); null when unknown. */
  merchantName?: string | null;
  useCase: 'ONE_OFF' | 'RECURRING' | 'UNSCHEDULED';
  amount: number;
  currencyCode: string;
  reference: string | null;
  metadata: Record<string, string> | null;
  returnUrl: string | null;
  /** The origins that may frame the hosted page; null: return_url's origin, if any. */
  allowedOrigins: string[] | null;
  /** The order line the hosted page shows under the amount. */
  description?: string | null;
  /** The hosted page's language (a supported locale); null: the consumer's browser decides. */
  locale?: string | null;
  recurringFrequency: number | null;
  recurringExpiry: string | null;
  /** Earlier interface: a stored card the consumer confirms on the hosted page instead of entering one. */
  storedCard?: StoredCardSession;
  /** Earlier interface: its part of the payment (the payment then answers in its shape). */
  earlier?: EarlierPayment;
  /** The merchant's Idempotency-Key: a retry that reaches the service again gets the payment the first made. */
  requestKey?: PaymentRequestKey | null;
}

export type CreatePayment = (scope: Scope, command: CreatePaymentCommand) => Promise<Payment>;

/** The simulator serves test mode only: a live payment never gets a simulated outcome. */
export function assertModeAllowed(mode: Mode, decision: FlowDecision): void {
  if (mode === 'live' && usesSimulator(decision.flow)) throw new SimulatorNotAllowedInLiveMode(decision.flow.name);
}

export function newProgress(): Payment['progress'] {
  return { next_step: 0, authorized_by: null, authorization_reference: null, capture: null, transactions: 0 };
}

/**
 * A consumer-present payment (one-off, initial recurring, initial unscheduled): processing, with a
 * checkout session the vault hosts. The payment, its stored credentials, payment.processing and
 * checkout.session.opened commit together. The flow is chosen now without the card (rules on
 * `scheme` wait for it) and again when the card is known.
 */
export function createPayment(ports: CreatePaymentPorts): CreatePayment {
  const { payments, credentials, transaction, clock, sessionLifetimeMs } = ports;
  return async (scope, command) => {
    const earlier = await paymentOfEarlierRequest(ports, scope, command.requestKey);
    if (earlier) return earlier;
    const now = clock.now();
    if (command.recurringExpiry !== null && command.recurringExpiry < calendarDay(now)) {
      throw new ValidationError('recurring_expiry', 'recurring_expiry must not be in the past.');
    }
    const decision = await decideFlow(ports, scope, {
      use_case: command.useCase,
      currency_code: command.currencyCode,
      amount: command.amount,
      reference: command.reference,
      scheme: null,
      metadata: command.metadata,
    });
    assertModeAllowed(command.mode, decision);
    if (ports.directory) authorizersTaking(decision.flow, await ports.directory(scope, command.mode), command.amount, command.currencyCode);
    const id = newId();
    const sessionId = newCapabilityId();
    const expiresAt = new Date(now.getTime() + sessionLifetimeMs).toISOString();
    const stored = command.useCase === 'ONE_OFF' ? null : newCredential(scope, id, command.useCase, command, now);
    const payment: Omit<Payment, 'version'> = {
      id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      use_case: command.useCase,
      status: 'processing',
      amount: { requested: command.amount },
      currency_code: command.currencyCode,
      reference: command.reference,
      metadata: command.metadata,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      session: {
        // The session id is the consumer's capability on the public card form: random, not derived from the payment's id.
        id: sessionId,
        expires_at: expiresAt,
        ...(ports.checkoutUrlOf ? { checkout_url: ports.checkoutUrlOf(sessionId) } : {}),
        ...(command.merchantName ? { merchant_name: command.merchantName } : {}),
        return_url: command.returnUrl,
        allowed_origins: allowedOriginsFor(command),
        ...(command.description ? { description: command.description } : {}),
        ...(command.locale ? { locale: command.locale } : {}),
        ...(command.storedCard ? { stored_card: command.storedCard } : {}),
      },
      credential_id: stored?.id ?? null,
      initial_payment_id: null,
      authentication_preference: null,
      recurring_frequency: command.useCase === 'RECURRING' ? command.recurringFrequency : null,
      recurring_expiry: command.useCase === 'RECURRING' ? command.recurringExpiry : null,
      source: null,
      card_scheme: null,
      token_id: null,
      network_transaction_reference: null,
      decision,
      progress: newProgress(),
      // Nothing runs before the card arrives; the worker looks again when the session expires.
      next_run_at: expiresAt,
      failure_reason: null,
      ...(command.earlier ? { earlier: command.earlier } : {}),
    };
    return transaction((uow) => {
      const inserted = payments.insert(uow, payment);
      rememberRequest(ports, uow, scope, command.requestKey, inserted.id);
      if (stored) credentials.insert(uow, stored);
      uow.publish(paymentMovedEvent(inserted, now));
      uow.publish(checkoutSessionOpenedEvent(inserted, now));
      return inserted;
    });
  };
}

/** Merchants who give no list embed the page on the site they return to (the SDK's usual setup). */
function allowedOriginsFor(command: CreatePaymentCommand): string[] {
  if (command.allowedOrigins !== null) return command.allowedOrigins;
  return command.returnUrl === null ? [] : [new URL(command.returnUrl).origin];
}

function newCredential(
  scope: Scope,
  paymentId: string,
  kind: UseCase & ('RECURRING' | 'UNSCHEDULED'),
  command: CreatePaymentCommand,
  now: Date,
): Omit<Credential, 'version'> {
  return {
    id: newId(),
    merchant_id: scope.merchantId,
    mode: scope.mode,
    kind,
    initial_payment_id: paymentId,
    status: 'pending',
    token_id: null,
    source: null,
    card_scheme: null,
    network_transaction_reference: null,
    recurring_frequency: kind === 'RECURRING' ? command.recurringFrequency : null,
    recurring_expiry: kind === 'RECURRING' ? command.recurringExpiry : null,
    last_charge_at: now.toISOString(),
    last_charge_payment_id: paymentId,
    previous_charge_at: null,
    created_at: now.toISOString(),
  };
}

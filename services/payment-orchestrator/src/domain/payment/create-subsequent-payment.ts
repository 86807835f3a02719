import { newId, type Scope, type Mode } from '@vaultline/core';
import { calendarDay, nextChargeAllowedAt } from '../credentials/credential';
import { decideFlow, type FlowCatalogPorts } from '../flows/flow-catalog';
import { authorizersTaking, declaresExplicitUnscheduled, stepOf } from '../flows/flow';
import { earlierUseCaseOf, type EarlierPayment } from '../earlier/earlier-payment';
import { MandateFirstPayment } from '../customers/payment-method';
import { assertModeAllowed, newProgress } from './create-payment';
import type { AuthenticationPreference } from '../payment-vocabulary/authentication';
import type { Payment } from './payment';
import { paymentMovedEvent } from './payment-events';
import {
  AmountExceedsInitial,
  AuthenticationNotConfigured,
  CredentialsExpired,
  CurrencyMismatch,
  InitialPaymentNotSuccessful,
  PaymentNotFound,
  RecurringFrequencyNotRespected,
  UseCaseMismatch,
} from './payment-errors';
import { paymentOfEarlierRequest, rememberRequest, type PaymentRequestKey, type PaymentRequestPorts } from './payment-requests';
import type { Clock } from '@vaultline/core';
import type { CredentialRepository } from '../credentials/credential-ports';
import type { PaymentRepository } from './payment-ports';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import type { TransactionRunner } from '@vaultline/store';
import { retryRefusal, RetryLimitReached, type RetryLimits } from '../declines/retry-limits';

export interface CreateSubsequentPaymentPorts extends FlowCatalogPorts, PaymentRequestPorts {
  payments: PaymentRepository;
  credentials: CredentialRepository;
  transaction: TransactionRunner;
  clock: Clock;
  /** Earlier interface: what the flow's processors declare (explicit unscheduled support). */
  directory?: ProcessorDirectory;
  /** The card schemes' limits on retrying a declined card (domain/declines/retry-limits.ts). */
  retryLimits: RetryLimits;
}

export interface SubsequentPaymentCommand {
  mode: Mode;
  kind: 'RECURRING' | 'UNSCHEDULED';
  initialPaymentId: string;
  amount: number;
  currencyCode: string;
  reference: string | null;
  metadata: Record<string, string> | null;
  authenticationPreference: AuthenticationPreference;
  /** The test clock (X-Test-Now, test keys only), else null: the request's effective time. */
  effectiveAt: Date | null;
  /** Earlier interface (mandates): its part of the payment; the use case is filled in here. */
  earlier?: Omit<EarlierPayment, 'use_case'>;
  /** The merchant's Idempotency-Key: a retry that reaches the service again gets the payment the first made. */
  requestKey?: PaymentRequestKey | null;
}

export type CreateSubsequentPayment = (scope: Scope, command: SubsequentPaymentCommand) => Promise<Payment>;

const SUCCESSFUL = new Set(['authorized', 'capturing', 'captured']);

/**
 * A merchant-initiated payment on the stored credentials of an initial payment: consumer absent, the
 * source copied, runs at once. The credentials' last charge moves to this payment in the same commit
 * (compare-and-set), so two concurrent requests cannot both pass the frequency rule.
 */
export function createSubsequentPayment(ports: CreateSubsequentPaymentPorts): CreateSubsequentPayment {
  const { payments, credentials, transaction, clock } = ports;
  return async (scope, command) => {
    const earlier = await paymentOfEarlierRequest(ports, scope, command.requestKey);
    if (earlier) return earlier;
    const realNow = clock.now();
    const now = command.effectiveAt ?? realNow;
    const initial = await payments.get(scope, command.initialPaymentId);
    if (!initial) throw new PaymentNotFound();
    // A one-off or a subsequent payment named as the initial one is the wrong use case, not a missing payment.
    if (initial.use_case !== command.kind || initial.credential_id === null) throw new UseCaseMismatch(command.kind, initial.use_case);
    if (initial.earlier && !command.earlier) throw new MandateFirstPayment();
    const credential = await credentials.get(scope, initial.credential_id);
    if (!credential || credential.status !== 'active' || !SUCCESSFUL.has(initial.status)) throw new InitialPaymentNotSuccessful();
    if (command.currencyCode !== initial.currency_code) throw new CurrencyMismatch(initial.currency_code);
    // A mandate (earlier interface) is consent to later charges without an amount agreed at the first payment,
    // as with Stripe's off-session charges; the newer interface's stored credentials keep the initial amount as the ceiling.
    if (!command.earlier && command.amount > initial.amount.requested) throw new AmountExceedsInitial();
    if (credential.recurring_expiry !== null && calendarDay(now) > credential.recurring_expiry) throw new CredentialsExpired(credential.recurring_expiry);
    if (command.kind === 'RECURRING' && now.getTime() < nextChargeAllowedAt(credential).getTime()) {
      throw new RecurringFrequencyNotRespected(credential.recurring_frequency ?? 0, nextChargeAllowedAt(credential).toISOString());
    }
    // A charge after a decline is a retry of the card: the schemes' limits (a hard decline allows none).
    const refusal = retryRefusal(credential.card_attempts, credential.card_scheme, now, ports.retryLimits);
    if (refusal) throw new RetryLimitReached(`The card of these credentials cannot be charged again now: ${refusal}.`);
    const intended = command.kind === 'RECURRING' ? 'SUBSEQUENT_RECURRING' : 'SUBSEQUENT_UNSCHEDULED';
    const decision = await decideFlow(ports, scope, {
      use_case: intended,
      currency_code: command.currencyCode,
      amount: command.amount,
      reference: command.reference,
      scheme: credential.card_scheme,
      metadata: command.metadata,
    });
    assertModeAllowed(command.mode, decision);
    const processors = ports.directory ? await ports.directory(scope, command.mode) : null;
    // An amount no processor of the authorization step can take is refused before anything is stored or sent.
    if (processors) authorizersTaking(decision.flow, processors, command.amount, command.currencyCode);
    // Earlier interface, rule 7: a processor that cannot mark a payment unscheduled is sent a recurring one.
    const useCase =
      command.earlier && processors && intended === 'SUBSEQUENT_UNSCHEDULED' && !declaresExplicitUnscheduled(decision.flow, processors)
        ? 'SUBSEQUENT_RECURRING'
        : intended;
    if (command.authenticationPreference === 'REQUIRE_3RI' && !stepOf(decision.flow, 'authentication_3ri'))
      throw new AuthenticationNotConfigured(decision.flow.name);
    const id = newId();
    const at = now.toISOString();
    const payment: Omit<Payment, 'version'> = {
      id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      use_case: useCase,
      status: 'processing',
      amount: { requested: command.amount },
      currency_code: command.currencyCode,
      reference: command.reference,
      metadata: command.metadata,
      created_at: at,
      updated_at: at,
      session: null,
      credential_id: credential.id,
      initial_payment_id: initial.id,
      authentication_preference: command.authenticationPreference,
      recurring_frequency: null,
      recurring_expiry: null,
      source: credential.source,
      card_scheme: credential.card_scheme,
      ...(credential.card_country ? { card_country: credential.card_country } : {}),
      token_id: credential.token_id,
      network_transaction_reference: credential.network_transaction_reference,
      initial_authorization: credential.initial_authorization ?? null,
      decision,
      progress: newProgress(),
      // Due at once: the runner is also started right after the commit (the worker catches a crash in between).
      next_run_at: realNow.toISOString(),
      failure_reason: null,
      ...(command.effectiveAt ? { test_clock_offset_ms: command.effectiveAt.getTime() - realNow.getTime() } : {}),
      ...(command.earlier ? { earlier: { ...command.earlier, use_case: earlierUseCaseOf(useCase) } } : {}),
    };
    return transaction((uow) => {
      credentials.update(uow, { ...credential, previous_charge_at: credential.last_charge_at, last_charge_at: at, last_charge_payment_id: id });
      const inserted = payments.insert(uow, payment);
      rememberRequest(ports, uow, scope, command.requestKey, inserted.id);
      uow.publish(paymentMovedEvent(inserted, now));
      return inserted;
    });
  };
}

import { newId, type Scope, scopeOfDocument } from '@vaultline/core';
import { ConcurrentModificationError, type UnitOfWork } from '@vaultline/store';
import type { Credential } from '../credentials/credential';
import { authorizersTaking, stepOf, threeDsOf, type FlowStep } from '../flows/flow';
import { AmountNotSupported } from '../processor-port/processor-amounts';
import {
  captureStepOf,
  effectiveTime,
  isFinal,
  isSecurityCodeAvailable,
  uncapturedAmount,
  type Payment,
  type PendingCapture,
  type ProcessorTransaction,
} from './payment';
import { isConsumerPresent } from '../payment-vocabulary/use-case';
import { CAPTURE_SETTLEMENT_RECHECK_MS, captureRetryDelayMs } from './capture-retry';
import { captureDataOf, paymentActionRequiredEvent, paymentCaptureFailedEvent, paymentMovedEvent } from './payment-events';
import { settlementRecheckMs } from '../processor-port/settlement-backoff';
import { AUTHENTICATION_FAILURES, failedBeforeAuthorization, type ActionRequiredOutcome } from '../payment-vocabulary/authentication';
import {
  awaitingConsumer,
  canAwaitConsumer,
  consumerAuthenticationOf,
  isAbandoned,
  keptAfterAuthorization,
  ranAuthentication,
} from './consumer-authentication';
import type { DomainEvent } from '@vaultline/contracts';
import { movePayment } from './payment-status';
import { storedCredentialOf } from './stored-credential';
import type {
  AuthorizationOutcome,
  CaptureOutcome,
  NotifiedEvent,
  ProcessorConnection,
  ProcessorDirectory,
  ProcessorPayment,
  Processors,
  StepOutcome,
} from '../processor-port/processor-port';
import type { Clock } from '@vaultline/core';
import type { CredentialRepository } from '../credentials/credential-ports';
import type { PaymentRepository, TransactionRepository } from './payment-ports';
import type { TransactionRunner } from '@vaultline/store';
import { shownUseCaseOf } from '../earlier/earlier-payment';
import { awaitingAnotherCard, canTakeAnotherCard, currentAttempt, endingChanges, paymentAttemptFailedEvent } from './card-attempts';
import { decideRoute, type RoutingPorts } from '../routing/routing-ports';
import { declineOfOutcome, lastAttemptSteppedUp, resumeRoute, startRoute, type RouteContext, type RouteResult } from '../routing/route-authorization';
import { segmentOf } from '../routing/segment';
import type { AttemptRecord, DecisionRecord } from '../routing/routing-stats';
import { strategyOf } from '../flows/step-routing';
import { retryRefusal, withCardAttempts } from '../declines/retry-limits';
import type { Decline } from '../declines/decline';

export interface AdvancePaymentPorts {
  payments: PaymentRepository;
  transactions: TransactionRepository;
  credentials: CredentialRepository;
  /** The merchant's processors (built-in ones and its processor accounts), opened for the payment's key mode. */
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
  /** Runs in the commit of a successful authorization (the earlier interface stores its card or mandate there). */
  onAuthorized?: (uow: UnitOfWork, payment: Payment, now: Date) => Payment;
  /** Runs in the commit that captures the payment (the simulator's disputed test card opens its dispute there). */
  onCaptured?: (uow: UnitOfWork, payment: Payment, now: Date) => Payment;
  /** The hosted page's return address for a session: where an issuer's page sends the consumer back (3-D Secure). */
  hostedPageReturnUrl: (sessionId: string) => string;
  /** How an authorization step picks its processors and follows declines (domain/routing/). */
  routing: RoutingPorts;
}

type StepPorts = AdvancePaymentPorts & { processors: Processors };

/** Runs a payment's flow as far as it can go now; resolves with the payment as stored afterwards. `notified`: a notification that just arrived for it (its capture's settlement). */
export type AdvancePayment = (scope: Scope, paymentId: string, notified?: NotifiedEvent) => Promise<Payment | null>;

type Attempt = { processor: string; outcome: StepOutcome };
type AuthorizationAttempt = { processor: string; outcome: AuthorizationOutcome };

/** What one step decided: the payment after it, the transactions it recorded, and credential changes. */
interface StepResult {
  payment: Payment;
  attempts: Array<Attempt & { kind: ProcessorTransaction['kind']; amount: number | null; decline?: Decline }>;
  credential?: (credential: Credential) => Credential | null;
  /** Events that are not a move (payment.action_required), built when the commit's time is known. */
  publish?: Array<(payment: Payment, at: Date) => DomainEvent>;
  /** The event of the move in place of payment.<status> (a manual capture's: with the capture; a failed one's: payment.capture_failed). */
  moveEvent?: (payment: Payment, at: Date) => DomainEvent;
  /** Authorization outcomes and routing decisions to count once committed (success-rate routing and GET /routing/stats). */
  counts?: { attempts: AttemptRecord[]; decisions: DecisionRecord[] };
}

const MAX_STEPS_PER_CALL = 16;

/**
 * The flow runner. Each pass looks at what the payment waits for (an expired session, the next step, a
 * capture to send or to settle), calls the processor outside any unit of work, then commits the
 * transactions, the payment (compare-and-set on its version) and the event of a move together. A
 * runner that lost the race (another worker, a capture call) stops: the winner's effect is in. After a
 * crash the payment is picked up again by next_run_at and the step in flight is sent again with the
 * same idempotency key.
 */
export function advancePayment(ports: AdvancePaymentPorts): AdvancePayment {
  const { payments, clock } = ports;
  return async (scope, paymentId, notified) => {
    let payment = await payments.get(scope, paymentId);
    for (let pass = 0; payment && pass < MAX_STEPS_PER_CALL; pass++) {
      const now = clock.now();
      if (!isDue(payment, now)) return payment;
      const result = await chainedSteps({ ...ports, processors: await ports.directory(scope, payment.mode, notified) }, payment, now);
      try {
        payment = await commit(ports, payment, result, now);
        if (result.counts) await countOutcomes(ports.routing, scope, now, result.counts);
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
        // Another writer won. If it moved the payment, its effect is in and this pass is moot; if only the
        // credentials changed under us (a concurrent subsequent payment), the next pass runs the step again.
        const current = await payments.get(scope, paymentId);
        if (!current || current.version !== payment.version) return current;
        payment = current;
      }
    }
    return payment;
  };
}

const isDue = (payment: Payment, now: Date) => payment.next_run_at !== null && Date.parse(payment.next_run_at) <= now.getTime();

/**
 * Runs steps one after another while the payment stays in its status and the next step is due at once
 * (risk → 3RI → authorization → sending the capture), and returns them as one result: one commit
 * instead of one per step. After a crash the uncommitted steps are sent again with the same idempotency
 * keys, as a single step would be.
 */
async function chainedSteps(ports: StepPorts, payment: Payment, now: Date): Promise<StepResult> {
  let result = await nextStep(ports, payment, now);
  for (let chained = 1; chained < MAX_STEPS_PER_CALL && result.payment.status === payment.status && isDue(result.payment, now); chained++) {
    const next = await nextStep(ports, result.payment, now);
    const counts =
      result.counts || next.counts
        ? {
            attempts: [...(result.counts?.attempts ?? []), ...(next.counts?.attempts ?? [])],
            decisions: [...(result.counts?.decisions ?? []), ...(next.counts?.decisions ?? [])],
          }
        : undefined;
    result = {
      payment: next.payment,
      attempts: [...result.attempts, ...next.attempts],
      credential: both(result.credential, next.credential),
      publish: [...(result.publish ?? []), ...(next.publish ?? [])],
      ...(next.moveEvent ? { moveEvent: next.moveEvent } : {}),
      ...(counts ? { counts } : {}),
    };
  }
  return result;
}

function both(first: StepResult['credential'], second: StepResult['credential']): StepResult['credential'] {
  if (!first || !second) return first ?? second;
  return (credential) => {
    const afterFirst = first(credential) ?? credential;
    return second(afterFirst) ?? (afterFirst === credential ? null : afterFirst);
  };
}

async function commit(ports: AdvancePaymentPorts, before: Payment, result: StepResult, now: Date): Promise<Payment> {
  const credential = result.credential && before.credential_id ? await ports.credentials.get(scopeOfDocument(before), before.credential_id) : null;
  // Scheduling runs on the real clock; what the payment records is stamped with its effective time (test clock).
  const at = effectiveTime(before, now);
  return ports.transaction((uow: UnitOfWork) => {
    let sequence = before.progress.transactions;
    for (const attempt of result.attempts) {
      ports.transactions.insert(uow, transactionOf(before, attempt, sequence++, at));
    }
    let next: Payment = {
      ...result.payment,
      progress: { ...result.payment.progress, transactions: sequence },
      ...(at === now ? {} : { updated_at: at.toISOString() }),
    };
    if (ports.onAuthorized && before.amount.authorized === undefined && next.amount.authorized !== undefined) next = ports.onAuthorized(uow, next, at);
    // A step's own events (the consumer must authenticate) happened before the move the chain ends in.
    for (const event of result.publish ?? []) uow.publish(event(next, at));
    if (next.status !== before.status) uow.publish(result.moveEvent ? result.moveEvent(next, at) : paymentMovedEvent(next, at));
    if (ports.onCaptured && next.status === 'captured' && before.status !== 'captured') next = ports.onCaptured(uow, next, at);
    if (credential && result.credential) {
      const changed = result.credential(credential);
      if (changed) ports.credentials.update(uow, changed);
    }
    return ports.payments.update(uow, next);
  });
}

function transactionOf(payment: Payment, attempt: StepResult['attempts'][number], sequence: number, now: Date): Omit<ProcessorTransaction, 'version'> {
  const { outcome } = attempt;
  return {
    id: newId(),
    merchant_id: payment.merchant_id,
    mode: payment.mode,
    payment_id: payment.id,
    sequence,
    processor: attempt.processor,
    kind: attempt.kind,
    status: outcome.status,
    failure_reason: outcome.status === 'succeeded' ? null : outcome.failure_reason,
    amount: attempt.amount,
    processor_reference: outcome.status === 'error' ? null : outcome.processor_reference,
    use_case: shownUseCaseOf(payment),
    ...(isConsumerPresent(payment.use_case) && payment.session ? { attempt: currentAttempt(payment) } : {}),
    ...(attempt.decline ? { decline: attempt.decline } : {}),
    created_at: now.toISOString(),
  };
}

function fail(payment: Payment, reason: string, now: Date, changes: Partial<Payment> = {}): Payment {
  return movePayment(payment, 'failed', { ...changes, failure_reason: reason, next_run_at: null }, now);
}

/** A failed subsequent payment gives its place in the frequency rule back. */
const releaseCharge =
  (payment: Payment) =>
  (credential: Credential): Credential | null =>
    credential.last_charge_payment_id === payment.id && credential.previous_charge_at
      ? { ...credential, last_charge_at: credential.previous_charge_at, previous_charge_at: null }
      : null;

/** `to`: the processor asked (an authorization's own details depend on it) and the time of asking. */
export function processorPayment(payment: Payment, stepKind: string, amount: number, to: { processor: string | null; now: Date }): ProcessorPayment {
  return {
    ...baseProcessorPayment(payment, stepKind, amount, to),
    // The authentication that already ran (3RI), for the authorization to carry.
    ...(payment.authentication ? { authentication_result: payment.authentication } : {}),
  };
}

function baseProcessorPayment(payment: Payment, stepKind: string, amount: number, to: { processor: string | null; now: Date }): ProcessorPayment {
  return {
    payment_id: payment.id,
    merchant_id: payment.merchant_id,
    use_case: payment.use_case,
    stored_credential: storedCredentialOf(payment),
    amount,
    currency_code: payment.currency_code,
    reference: payment.reference,
    token_id: payment.token_id ?? '',
    masked_account_number: payment.source?.masked_account_number ?? '',
    scheme: payment.card_scheme,
    network_transaction_reference: payment.network_transaction_reference,
    authentication_preference: payment.authentication_preference,
    // A second card on the hosted page is a new request at the processor: its steps get keys of their own.
    idempotency_key: currentAttempt(payment) > 1 ? `${payment.id}:${stepKind}:attempt-${currentAttempt(payment)}` : `${payment.id}:${stepKind}`,
    cardholder_name: payment.source?.cardholder_name ?? null,
    capture_mode: payment.decision?.flow.capture_mode ?? 'automatic',
    // The vault keeps it 15 minutes from entry (a payment resumed later, after a crash or a long outage, goes without).
    security_code_available: isSecurityCodeAvailable(payment, to.now),
    // Only the account that authorized the initial payment knows its reference; any other gets the scheme's
    // reference (Checkout.com's scheme_id in place of previous_payment_id).
    initial_processor_reference:
      payment.initial_authorization && payment.initial_authorization.processor === to.processor ? payment.initial_authorization.reference : null,
    mode: payment.mode,
    authorization_reference: payment.progress.authorization_reference,
    effective_at: effectiveTime(payment, to.now).toISOString(),
  };
}

/** The step's processor, then its fallbacks while the answer is a retryable error (`ids`: those of them that may be asked). */
async function withFallback<O extends AuthorizationOutcome = StepOutcome>(
  ports: StepPorts,
  step: FlowStep,
  call: (processor: ProcessorConnection, id: string) => Promise<O>,
  ids: readonly string[] = [step.processor, ...step.fallback],
): Promise<Array<{ processor: string; outcome: O | StepOutcome }>> {
  const attempts: Array<{ processor: string; outcome: O | StepOutcome }> = [];
  for (const id of ids) {
    const processor = ports.processors.get(id);
    const outcome: O | StepOutcome = processor
      ? await call(processor, id).catch((error: unknown) => errorOutcome(error))
      : { status: 'error', failure_reason: 'processor_unavailable' };
    attempts.push({ processor: id, outcome });
    if (outcome.status !== 'error') break;
  }
  return attempts;
}

function errorOutcome(error: unknown): StepOutcome {
  return { status: 'error', failure_reason: error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'processor_error' };
}

async function nextStep(ports: StepPorts, payment: Payment, now: Date): Promise<StepResult> {
  const unchanged = (changes: Partial<Payment>): StepResult => ({ payment: { ...payment, ...changes, updated_at: now.toISOString() }, attempts: [] });
  if (isFinal(payment.status) || payment.status === 'authorized') return unchanged({ next_run_at: null });
  if (payment.token_id === null) {
    // Consumer present and no card yet (or none since a failed one): the only thing that can be due is the session's expiry.
    if (payment.session && Date.parse(payment.session.expires_at) <= now.getTime()) {
      const ending = endingChanges(payment, 'session_expired');
      return { payment: fail(payment, ending.failure_reason!, now, { decline: ending.decline }), attempts: [], credential: releaseCharge(payment) };
    }
    return unchanged({ next_run_at: payment.session?.expires_at ?? null });
  }
  if (payment.progress.capture) return captureStep(ports, payment, now);
  const flow = payment.decision!.flow;
  const step = flow.steps[payment.progress.next_step];
  if (!step) return unchanged({ next_run_at: null });
  const advance = (changes: Partial<Payment> = {}): Payment => ({
    ...payment,
    ...changes,
    progress: { ...payment.progress, ...changes.progress, next_step: payment.progress.next_step + 1 },
    updated_at: now.toISOString(),
  });
  const record = (attempts: Attempt[], amount: number | null) => attempts.map((a) => ({ ...a, kind: step.kind, amount }));
  const amount = payment.amount.requested;

  switch (step.kind) {
    case 'risk': {
      const attempts = await withFallback(ports, step, (p, id) =>
        p.assessRisk ? p.assessRisk(processorPayment(payment, step.kind, amount, { processor: id, now })) : Promise.resolve(noCapability),
      );
      const last = attempts[attempts.length - 1]!.outcome;
      if (last.status !== 'succeeded' && step.on_failure === 'stop') {
        return {
          payment: fail(payment, last.status === 'failed' ? 'risk_declined' : 'processor_error', now),
          attempts: record(attempts, null),
          credential: releaseCharge(payment),
        };
      }
      return { payment: advance(), attempts: record(attempts, null) };
    }
    case 'authentication_3ri': {
      const preference = payment.authentication_preference ?? 'NO_3RI';
      // 3RI is for merchant-initiated payments only: a consumer-present payment never runs it.
      if (isConsumerPresent(payment.use_case) || preference === 'NO_3RI') return { payment: advance(), attempts: [] };
      const attempts = await withFallback(ports, step, (p, id) =>
        p.authenticate3ri ? p.authenticate3ri(processorPayment(payment, step.kind, amount, { processor: id, now })) : Promise.resolve(noCapability),
      );
      const last = attempts[attempts.length - 1]!.outcome;
      // What the issuer said (ECI, authentication value, DS transaction id) goes on to the authorization.
      const authentication = last.status !== 'error' && last.authentication ? { authentication: last.authentication } : {};
      if (last.status !== 'succeeded' && preference === 'REQUIRE_3RI') {
        return {
          payment: fail({ ...payment, ...authentication }, 'authentication_failed', now),
          attempts: record(attempts, null),
          credential: releaseCharge(payment),
        };
      }
      return { payment: advance(authentication), attempts: record(attempts, null) };
    }
    case 'authorization': {
      const told = consumerAuthenticationOf(payment, threeDsOf(step), ports.hostedPageReturnUrl);
      // A step-up is another request to the same processor: a challenge asked for, under a key of its own.
      const request = (id: string, stepUp = false) => ({
        ...processorPayment(payment, stepUp ? STEP_UP_STEP : step.kind, amount, { processor: id, now: ports.clock.now() }),
        ...(told ? { consumer_authentication: stepUp ? { ...told, three_ds: 'always' as const } : told } : {}),
      });
      const scope = scopeOfDocument(payment);
      const at = effectiveTime(payment, now);
      const credentialNow = !isConsumerPresent(payment.use_case) && payment.credential_id ? await ports.credentials.get(scope, payment.credential_id) : null;
      const context: RouteContext = {
        step,
        consumerCanAuthenticate: told !== null && told.three_ds !== 'off',
        authorize: async (id, stepUp) => {
          const processor = ports.processors.get(id);
          return processor ? processor.authorize(request(id, stepUp)) : { status: 'error', failure_reason: 'processor_unavailable' };
        },
        // Merchant-initiated: a next processor after a decline is a retry of the card, within the schemes' limits.
        ...(credentialNow
          ? {
              retryRefusal: (declines: readonly Decline[]) =>
                retryRefusal(credentialNow.card_attempts, payment.card_scheme, at, ports.routing.retryLimits, declines),
            }
          : {}),
      };
      const routing = payment.routing ?? { strategy: strategyOf(step), decisions: [], attempts: [] };
      const segment = segmentOf(payment);
      let routed: RouteResult;
      const decisions: DecisionRecord[] = [];
      if (payment.pending_authentication) {
        // The consumer is away authenticating: abandoned once the session expired, resumed once back.
        const pending = payment.pending_authentication;
        if (isAbandoned(payment, now))
          return {
            payment: fail(payment, AUTHENTICATION_FAILURES.abandoned, now, { pending_authentication: null }),
            attempts: [],
            credential: releaseCharge(payment),
          };
        if (!pending.returned) return unchanged({ next_run_at: payment.session?.expires_at ?? null });
        const processor = ports.processors.get(pending.processor);
        const returned = { processor_reference: pending.processor_reference, resume: pending.resume, parameters: pending.returned.parameters };
        const outcome: AuthorizationOutcome = processor?.resumeAuthorization
          ? await processor
              .resumeAuthorization(request(pending.processor, lastAttemptSteppedUp(payment.routing)), returned)
              .catch((error: unknown) => errorOutcome(error))
          : { status: 'error', failure_reason: processor ? 'capability_missing' : 'processor_unavailable' };
        routed = await resumeRoute(context, routing, pending.processor, outcome);
      } else {
        // A processor that cannot take the amount is passed over; with none left the payment fails, nothing sent.
        const taking = authorizersTakingOrNone(flow, ports.processors, amount, payment.currency_code);
        if (!taking) return { payment: fail(payment, 'amount_not_supported', now), attempts: [], credential: releaseCharge(payment) };
        const choice = await decideRoute(ports.routing, scope, step, taking, segment);
        routed = await startRoute(context, routing, choice, {
          at: at.toISOString(),
          ...(payment.session && isConsumerPresent(payment.use_case) ? { cardAttempt: currentAttempt(payment) } : {}),
        });
        if (choice.order[0]) decisions.push({ processor: choice.order[0], segment, reason: choice.reason });
      }
      const attempts = routed.attempts;
      const counts = { attempts: countedAttempts(attempts, segment), decisions };
      const cardCountry = attempts.map(({ outcome }) => ('issuer_country' in outcome ? outcome.issuer_country : null)).find((country) => !!country) ?? null;
      const lastAttempt = attempts[attempts.length - 1]!;
      const last = lastAttempt.outcome;
      const routedPayment: Payment = { ...payment, routing: routed.routing, ...(cardCountry && !payment.card_country ? { card_country: cardCountry } : {}) };
      const settled = { ...routedPayment, pending_authentication: null };
      // What the card's credentials remember of these attempts (the schemes' retry limits); an unanswered one reached no issuer.
      const cardAttempts = (credential: Credential): Credential => ({
        ...credential,
        card_attempts: withCardAttempts(
          credential.card_attempts,
          attempts
            .filter(({ outcome }) => outcome.status === 'succeeded' || (outcome.status === 'failed' && declineOfOutcome(outcome)))
            .map(({ outcome }) => declineOfOutcome(outcome) ?? null),
          at,
        ),
        ...(cardCountry && !credential.card_country ? { card_country: cardCountry } : {}),
      });
      const remembered =
        payment.credential_id && attempts.some(({ outcome }) => outcome.status === 'succeeded' || outcome.status === 'failed') ? cardAttempts : undefined;
      const earlier = authorizationRecords(attempts.slice(0, -1), amount);
      if (last.status === 'action_required') {
        if (!canAwaitConsumer(told, last))
          return {
            payment: fail(settled, AUTHENTICATION_FAILURES.required, now),
            attempts: authorizationRecords(attempts, amount),
            credential: both(releaseCharge(payment), remembered),
            counts,
          };
        const waiting = awaitingConsumer(routedPayment, lastAttempt.processor, last, now);
        // Built from the payment as it waits: a chained step may end the wait in the same commit (a session already expired).
        // The attempts before the one that sent the consumer away (a soft decline before a step-up) are recorded now.
        return { payment: waiting, attempts: earlier, publish: [(_committed, at) => paymentActionRequiredEvent(waiting, at)], credential: remembered, counts };
      }
      const authentication = 'authentication' in last && last.authentication ? last.authentication : null;
      const recorded = authorizationRecords(attempts, amount);
      const withAuthentication: Payment = authentication
        ? { ...settled, authentication: keptAfterAuthorization(authentication) }
        : settled.authentication
          ? { ...settled, authentication: keptAfterAuthorization(settled.authentication) }
          : settled;
      const decline = declineOfOutcome(last) ?? null;
      if (last.status === 'failed' && canTakeAnotherCard(payment, last.failure_reason, now)) {
        // Declined or challenge failed on the hosted page: the consumer may try another card in the same session.
        const waiting = awaitingAnotherCard(withAuthentication, last.failure_reason, withAuthentication.authentication ?? null, now, decline);
        return { payment: waiting, attempts: recorded, publish: [(committed, at) => paymentAttemptFailedEvent(committed, at)], credential: remembered, counts };
      }
      if (last.status === 'failed')
        return {
          payment: fail(withAuthentication, last.failure_reason, now, { decline }),
          attempts: recorded,
          credential: both(releaseCharge(payment), remembered),
          counts,
        };
      if (last.status === 'error')
        return {
          payment: fail(withAuthentication, 'processor_error', now, { decline }),
          attempts: recorded,
          credential: both(releaseCharge(payment), remembered),
          counts,
        };
      const authorized: Partial<Payment> = {
        pending_authentication: null,
        ...(withAuthentication.authentication ? { authentication: withAuthentication.authentication } : {}),
        amount: { ...payment.amount, authorized: amount },
        network_transaction_reference: last.network_transaction_reference ?? payment.network_transaction_reference,
        progress: { ...payment.progress, authorized_by: lastAttempt.processor, authorization_reference: last.processor_reference },
        routing: routed.routing,
        ...(cardCountry && !payment.card_country ? { card_country: cardCountry } : {}),
      };
      const credential = both(activateCredential({ ...payment, ...authorized }), remembered);
      if (flow.capture_mode === 'manual') {
        const next = advance(authorized);
        // The capture step waits for POST /payments/{id}/capture.
        return { payment: movePayment(next, 'authorized', { next_run_at: null }, now), attempts: recorded, credential, counts };
      }
      return { payment: advance(authorized), attempts: recorded, credential, counts };
    }
    case 'capture': {
      const captureAmount = payment.amount.authorized ?? amount;
      return captureStep(
        ports,
        { ...payment, progress: { ...payment.progress, capture: { amount: captureAmount, reference: null, processor_reference: null } } },
        now,
      );
    }
  }
}

const noCapability: StepOutcome = { status: 'error', failure_reason: 'capability_missing' };

/** The step name of a 3-D Secure step-up (its idempotency key is `<payment>:authorization:step-up`, another request than the first). */
const STEP_UP_STEP = 'authorization:step-up';

/**
 * What routing statistics count of an authorization's attempts: each answer (an approval, a decline, none at
 * all) of a card that was not declined before in this route. A retry after a decline (a next processor, a
 * step-up) asks about a card one issuer already refused: counted, it would make the processor it went to
 * look worse than it is (insufficient funds are declined everywhere). A pending authentication counts when
 * it settles.
 */
function countedAttempts(attempts: RouteResult['attempts'], segment: ReturnType<typeof segmentOf>): AttemptRecord[] {
  const counted: AttemptRecord[] = [];
  for (const { processor, outcome, stepUp } of attempts) {
    if (stepUp) break;
    if (outcome.status === 'action_required') continue;
    counted.push({ processor, segment, result: outcome.status === 'succeeded' ? 'approved' : outcome.status === 'error' ? 'error' : 'declined' });
    if (outcome.status === 'failed') break;
  }
  return counted;
}

/** Counts are advice to later decisions: one that cannot be stored is reported, the payment's commit stands. */
async function countOutcomes(routing: RoutingPorts, scope: Scope, now: Date, counts: NonNullable<StepResult['counts']>): Promise<void> {
  if (counts.attempts.length === 0 && counts.decisions.length === 0) return;
  try {
    await routing.stats.record(scope, now, counts);
  } catch (error) {
    routing.onStatsError(error);
  }
}

function authorizersTakingOrNone(...args: Parameters<typeof authorizersTaking>): string[] | null {
  try {
    return authorizersTaking(...args);
  } catch (error) {
    if (error instanceof AmountNotSupported) return null;
    throw error;
  }
}

/**
 * An authorization's transactions: the 3-D Secure authentication that ran with it first (authentication_3ds),
 * then the authorization itself, unless the authentication failed before any authorization was asked for.
 * An action_required answer that cannot be followed is listed as the authorization's failure.
 */
function authorizationRecords(attempts: AuthorizationAttempt[], amount: number): StepResult['attempts'] {
  return attempts.flatMap(({ processor, outcome }) => {
    if (outcome.status === 'action_required') {
      const required = requiredOutcome(outcome);
      return [{ processor, outcome: required, kind: 'authorization' as const, amount, decline: declineOfOutcome(required)! }];
    }
    const records: StepResult['attempts'] = [];
    if ('authentication' in outcome && ranAuthentication(outcome.authentication)) {
      const authenticated = outcome.authentication.status === 'authenticated' || outcome.authentication.status === 'attempted';
      records.push({
        processor,
        outcome: authenticated
          ? { status: 'succeeded', processor_reference: outcome.processor_reference }
          : { status: 'failed', failure_reason: AUTHENTICATION_FAILURES.failed, processor_reference: outcome.processor_reference },
        kind: 'authentication_3ds',
        amount: null,
      });
    }
    if (!failedBeforeAuthorization(outcome)) {
      const decline = declineOfOutcome(outcome);
      records.push({ processor, outcome, kind: 'authorization', amount, ...(decline ? { decline } : {}) });
    }
    return records;
  });
}

const requiredOutcome = (outcome: ActionRequiredOutcome): StepOutcome => ({
  status: 'failed',
  failure_reason: AUTHENTICATION_FAILURES.required,
  processor_reference: outcome.processor_reference,
});

/** Initial recurring and unscheduled payments: the credentials become usable with the authorization's references. */
function activateCredential(payment: Payment): StepResult['credential'] {
  if (payment.use_case !== 'RECURRING' && payment.use_case !== 'UNSCHEDULED') return undefined;
  return (credential) => ({
    ...credential,
    status: 'active',
    token_id: payment.token_id,
    source: payment.source,
    card_scheme: payment.card_scheme,
    network_transaction_reference: payment.network_transaction_reference,
    initial_authorization:
      payment.progress.authorized_by && payment.progress.authorization_reference
        ? { processor: payment.progress.authorized_by, reference: payment.progress.authorization_reference }
        : null,
  });
}

/** Sends the capture, or asks how a sent one settled. */
async function captureStep(ports: StepPorts, payment: Payment, now: Date): Promise<StepResult> {
  const capture = payment.progress.capture!;
  const manual = payment.status === 'capturing';
  const processorId = payment.progress.authorized_by ?? stepOf(payment.decision!.flow, 'capture')!.processor;
  const processor = ports.processors.get(processorId);
  const request = {
    ...processorPayment(payment, captureStepOf(capture.sequence), capture.amount, { processor: processorId, now }),
    capture: manual ? captureRequestOf(payment, capture) : null,
  };
  let outcome: CaptureOutcome;
  try {
    if (!processor) outcome = { status: 'error', failure_reason: 'processor_unavailable' };
    else if (capture.processor_reference === null) outcome = await processor.capture(request, payment.progress.authorization_reference);
    else outcome = await processor.captureStatus(request, capture.processor_reference);
  } catch (error) {
    outcome = errorOutcome(error);
  }
  const attempt = (o: StepOutcome) => [{ processor: processorId, outcome: o, kind: 'capture' as const, amount: capture.amount }];
  switch (outcome.status) {
    case 'pending': {
      // Asked about a capture already sent and still no final word: the next question waits longer.
      const checks = capture.processor_reference === null ? 0 : (capture.status_checks ?? 0) + 1;
      return {
        payment: {
          ...payment,
          progress: { ...payment.progress, capture: { ...capture, processor_reference: outcome.processor_reference, status_checks: checks } },
          next_run_at: new Date(now.getTime() + settlementRecheckMs(outcome.poll_after_ms, checks)).toISOString(),
          updated_at: now.toISOString(),
        },
        attempts: [],
      };
    }
    case 'succeeded': {
      const settled: PendingCapture = { ...capture, processor_reference: outcome.processor_reference ?? capture.processor_reference };
      if (!manual) {
        return {
          payment: movePayment(
            payment,
            'captured',
            { amount: { ...payment.amount, captured: capture.amount }, progress: { ...payment.progress, capture: settled }, next_run_at: null },
            now,
          ),
          attempts: attempt(outcome),
        };
      }
      return settledManualCapture(ports, payment, settled, processorId, now, attempt(outcome));
    }
    case 'failed':
      if (!manual) return { payment: fail(payment, outcome.failure_reason, now), attempts: attempt(outcome), credential: releaseCharge(payment) };
      return failedManualCapture(
        payment,
        { ...capture, processor_reference: outcome.processor_reference ?? capture.processor_reference },
        outcome.failure_reason,
        now,
        attempt(outcome),
      );
    case 'error':
      // Ambiguous: the money may have moved. Never failed for it (domain/payment/capture-retry.ts).
      return ambiguousCapture(payment, capture, outcome, now, attempt(outcome));
  }
}

/** What the processor is told of a manual capture: its number, whether it is final, what was captured before and what stays after. */
function captureRequestOf(payment: Payment, capture: PendingCapture) {
  const capturedBefore = payment.amount.captured ?? 0;
  return {
    sequence: capture.sequence ?? 1,
    final: capture.final !== false,
    captured_before: capturedBefore,
    uncaptured_after: Math.max(0, uncapturedAmount(payment) - capture.amount),
  };
}

/**
 * A manual capture settled: amount.captured grows by it, payment.captured tells it (with the capture).
 * A final one (or one that took all that was left) ends the payment captured: the processor released the
 * rest with it, or, where its final capture does not (releaseRemainder: Adyen with multiple partial
 * captures), the rest is released now and listed as a void of what was left. A non-final one leaves the
 * payment partially_captured, the rest still held for later captures.
 */
async function settledManualCapture(
  ports: StepPorts,
  payment: Payment,
  capture: PendingCapture,
  processorId: string,
  now: Date,
  attempts: StepResult['attempts'],
): Promise<StepResult> {
  const captured = (payment.amount.captured ?? 0) + capture.amount;
  const left = Math.max(0, (payment.amount.authorized ?? 0) - captured);
  const final = capture.final !== false || left === 0;
  const released: StepResult['attempts'] = [];
  const connection = ports.processors.get(processorId);
  if (final && left > 0 && connection?.releaseRemainder && payment.progress.authorization_reference) {
    const request = processorPayment(payment, 'release', left, { processor: processorId, now });
    const outcome = await connection.releaseRemainder(request, payment.progress.authorization_reference).catch((error: unknown) => errorOutcome(error));
    released.push({
      processor: processorId,
      outcome: outcome.status === 'succeeded' ? { ...outcome, processor_reference: payment.progress.authorization_reference } : outcome,
      kind: 'void',
      amount: left,
    });
  }
  const next = movePayment(
    payment,
    final ? 'captured' : 'partially_captured',
    { amount: { ...payment.amount, captured }, progress: { ...payment.progress, capture: null }, next_run_at: null },
    now,
  );
  return {
    payment: next,
    attempts: [...attempts, ...released],
    moveEvent: (committed, at) => paymentMovedEvent(committed, at, captureDataOf(capture, 'succeeded')),
  };
}

/** How many failed manual captures a payment keeps for a late success (a recapture comes hours, not captures, later). */
const FAILED_CAPTURES_KEPT = 5;

/**
 * A manual capture failed: the payment does not fail. It is authorized again (partially_captured when
 * earlier captures settled), nothing is released, and payment.capture_failed says so: the merchant may
 * capture again while the authorization is valid, or cancel to release it.
 */
function failedManualCapture(payment: Payment, capture: PendingCapture, reason: string, now: Date, attempts: StepResult['attempts']): StepResult {
  const back = (payment.amount.captured ?? 0) > 0 ? 'partially_captured' : 'authorized';
  // Kept (the last few) in case the processor captures it after all (a recapture reported later).
  const failed = [...(payment.progress.failed_captures ?? []), capture].slice(-FAILED_CAPTURES_KEPT);
  return {
    payment: movePayment(payment, back, { progress: { ...payment.progress, capture: null, failed_captures: failed }, next_run_at: null }, now),
    attempts,
    moveEvent: (committed, at) => paymentCaptureFailedEvent(committed, at, captureDataOf(capture, 'failed', reason)),
  };
}

/**
 * A capture sent (or asked about) without a clear answer. Unsent-or-unknown: sent again with the same
 * idempotency key after a backoff, each attempt listed as an `error` transaction. Once the retries are
 * spent, or when only the question about a sent capture failed, the payment waits for the processor's
 * word on the authorization (a capture is one per payment): `processor_reference` then names the
 * authorization, which the processor's capture notification (and its payment's actions) name too.
 */
function ambiguousCapture(payment: Payment, capture: PendingCapture, outcome: StepOutcome, now: Date, attempts: StepResult['attempts']): StepResult {
  const sent = capture.processor_reference !== null;
  const tries = (capture.ambiguous_attempts ?? 0) + 1;
  const retryIn = sent ? null : captureRetryDelayMs(tries);
  // The authorization names the payment's only capture; a later one of several would be confused with the
  // ones before it, so it is sent again (same idempotency key: the processor answers it, never captures twice).
  const waitOnAuthorization = (capture.sequence ?? 1) <= 1;
  const waiting: PendingCapture =
    sent || retryIn !== null || !waitOnAuthorization ? capture : { ...capture, processor_reference: payment.progress.authorization_reference };
  return {
    payment: {
      ...payment,
      progress: { ...payment.progress, capture: { ...waiting, ambiguous_attempts: tries } },
      next_run_at: new Date(now.getTime() + (retryIn ?? CAPTURE_SETTLEMENT_RECHECK_MS)).toISOString(),
      updated_at: now.toISOString(),
    },
    // A question about a sent capture that went unanswered is not a capture attempt: nothing to list.
    attempts: sent ? [] : attempts,
  };
}

import { declineOfReason, isHardDecline, type Decline } from '../declines/decline';
import type { FlowStep } from '../flows/flow';
import { ruleFor } from '../flows/step-routing';
import type { AuthorizationOutcome, StepOutcome } from '../processor-port/processor-port';
import { failedBeforeAuthorization } from '../payment-vocabulary/authentication';
import type { RoutingChoice } from './choose-processor';
import { currentDecision, type PaymentRouting, type RoutingAttempt } from './payment-routing';

/**
 * An authorization step run by its routing: the first processor of the decision, then, while the answers
 * allow, the next ones. A technical error (no answer) always goes on to the next processor, as fallbacks
 * always did. A decline goes on only as the step's `on_decline` rules say, and never when it is hard
 * (lost or stolen, fraud, an invalid card, an advice that forbids a retry): `next_processor` to the next
 * processor of the decision's order, `step_up_3ds` to the same processor again with a 3-D Secure
 * challenge (the consumer authenticates on the hosted page; the authorization resumes from here when they
 * are back). Every attempt is recorded with why it went where it went.
 */

export interface RoutedAttempt {
  processor: string;
  outcome: AuthorizationOutcome;
  /** The attempt was the step-up: the same processor with a 3-D Secure challenge. */
  stepUp: boolean;
  /** A failed or unanswered authorization's decline (absent when authorized, sent to authenticate, or a failed challenge). */
  decline?: Decline;
}

export interface RouteContext {
  step: FlowStep;
  /** The consumer can be sent to authenticate: consumer present, a hosted page, three_ds not off. */
  consumerCanAuthenticate: boolean;
  /** Asks one processor (a step-up asks the same processor with a challenge, under its own idempotency key). */
  authorize(processor: string, stepUp: boolean): Promise<AuthorizationOutcome>;
  /**
   * Merchant-initiated payments: why another attempt with this card would break the schemes' retry limits
   * (given this payment's declines so far), or null when it may go on.
   */
  retryRefusal?: (declines: readonly Decline[]) => string | null;
}

export interface RouteResult {
  attempts: RoutedAttempt[];
  routing: PaymentRouting;
}

/** The decline an outcome carries: the plugin's, else derived from the failure reason; none for a success, a pending authentication or a failed challenge. */
export function declineOfOutcome(outcome: AuthorizationOutcome | StepOutcome): Decline | undefined {
  if (outcome.status === 'succeeded' || outcome.status === 'action_required') return undefined;
  if (outcome.status === 'error') return declineOfReason(outcome.failure_reason);
  if (failedBeforeAuthorization(outcome)) return undefined;
  return outcome.decline ?? declineOfReason(outcome.failure_reason);
}

/** A new decision (a card's first authorization): its first processor, then on as the answers allow. */
export async function startRoute(
  context: RouteContext,
  routing: PaymentRouting,
  choice: RoutingChoice,
  decided: { at: string; cardAttempt?: number },
): Promise<RouteResult> {
  const { strategy: _strategy, ...decision } = choice;
  const started: PaymentRouting = {
    ...routing,
    decisions: [...routing.decisions, { ...decision, ...(decided.cardAttempt ? { card_attempt: decided.cardAttempt } : {}), decided_at: decided.at }],
  };
  const first = choice.order[0];
  if (first === undefined) return { attempts: [], routing: started };
  return follow(context, started, { processor: first, position: 0, stepUp: false, reason: choice.detail }, null);
}

/**
 * The consumer is back from authenticating: `outcome` is the processor's answer to the resumed
 * authorization (the attempt that sent them, a step-up or the issuer's own challenge), and the route goes on
 * from there.
 */
export async function resumeRoute(context: RouteContext, routing: PaymentRouting, processor: string, outcome: AuthorizationOutcome): Promise<RouteResult> {
  const last = routing.attempts[routing.attempts.length - 1];
  const stepUp = last?.processor === processor && last.three_ds === 'step_up';
  const position = last?.processor === processor ? (last.position ?? 0) : Math.max(0, currentDecision(routing)?.order.indexOf(processor) ?? 0);
  return follow(context, routing, { processor, position, stepUp, reason: 'the consumer came back from authenticating: the authorization resumed' }, outcome);
}

/** Whether the latest attempt of the payment's routing was a step-up (its resume keeps the step-up's idempotency key). */
export function lastAttemptSteppedUp(routing: PaymentRouting | null | undefined): boolean {
  const last = routing?.attempts[routing.attempts.length - 1];
  return last?.three_ds === 'step_up';
}

interface Next {
  processor: string;
  /** Its place in the decision's order. */
  position: number;
  stepUp: boolean;
  reason: string;
}

async function follow(context: RouteContext, routing: PaymentRouting, first: Next, answered: AuthorizationOutcome | null): Promise<RouteResult> {
  const attempts: RoutedAttempt[] = [];
  const recorded: RoutingAttempt[] = [...routing.attempts];
  const decision = currentDecision(routing);
  const order = decision?.order ?? [first.processor];
  const cardAttempt = decision?.card_attempt;
  const declines: Decline[] = [];
  let next: Next | null = first;
  let given = answered;
  let steppedUp = first.stepUp;
  while (next) {
    const current: Next = next;
    // A resumed authorization's answer is given; every other attempt asks now (a throw is no answer).
    const outcome: AuthorizationOutcome = given ?? (await context.authorize(current.processor, current.stepUp).catch((error: unknown) => unanswered(error)));
    const resumed = given !== null;
    given = null;
    const decline = declineOfOutcome(outcome);
    attempts.push({ processor: current.processor, outcome, stepUp: current.stepUp, ...(decline ? { decline } : {}) });
    if (decline && outcome.status === 'failed') declines.push(decline);
    const attempt: RoutingAttempt = {
      processor: current.processor,
      position: current.position,
      ...(cardAttempt ? { card_attempt: cardAttempt } : {}),
      reason: current.reason,
      ...(current.stepUp ? { three_ds: 'step_up' as const } : {}),
      result: resultOf(outcome),
      ...(decline ? { decline } : {}),
    };
    // A resumed attempt is the one recorded when the consumer was sent away: its record is completed, not repeated.
    if (
      resumed &&
      recorded.length > 0 &&
      recorded[recorded.length - 1]!.processor === current.processor &&
      recorded[recorded.length - 1]!.result === 'authentication'
    ) {
      const before = recorded.pop()!;
      recorded.push({ ...attempt, reason: before.reason, ...(before.three_ds ? { three_ds: before.three_ds } : {}) });
    } else {
      recorded.push(attempt);
    }
    const decided = nextOrStop(context, order, current, outcome, decline, declines, steppedUp);
    next = decided.next;
    const then = next
      ? { action: next.stepUp ? ('step_up_3ds' as const) : ('next_processor' as const), reason: next.reason }
      : decided.stop
        ? { action: 'stopped' as const, reason: decided.stop }
        : null;
    if (then) recorded[recorded.length - 1] = { ...recorded[recorded.length - 1]!, then };
    if (next?.stepUp) steppedUp = true;
  }
  return { attempts, routing: { ...routing, attempts: recorded } };
}

function unanswered(error: unknown): StepOutcome {
  return { status: 'error', failure_reason: error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'processor_error' };
}

function resultOf(outcome: AuthorizationOutcome): RoutingAttempt['result'] {
  switch (outcome.status) {
    case 'succeeded':
      return 'authorized';
    case 'action_required':
      return 'authentication';
    case 'error':
      return 'error';
    case 'failed':
      return 'declined';
  }
}

/** The one place that says what follows an answer: the next attempt, or why the route stops (null for an authorization or a pending authentication). */
function nextOrStop(
  context: RouteContext,
  order: readonly string[],
  current: Next,
  outcome: AuthorizationOutcome,
  decline: Decline | undefined,
  declines: readonly Decline[],
  steppedUp: boolean,
): { next: Next | null; stop: string | null } {
  if (outcome.status === 'succeeded' || outcome.status === 'action_required') return { next: null, stop: null };
  const position = current.position + 1;
  const following = order[position];
  if (outcome.status === 'error') {
    if (following === undefined)
      return { next: null, stop: `${current.processor} did not answer (${outcome.failure_reason}) and no processor of the step is left` };
    return {
      next: {
        processor: following,
        position,
        stepUp: false,
        reason: `${current.processor} did not answer (${outcome.failure_reason}): a technical error always goes on to the next processor of the step`,
      },
      stop: null,
    };
  }
  if (!decline) return { next: null, stop: "the consumer's 3-D Secure authentication failed: nothing was authorized" };
  const what = `${current.processor} declined (${decline.category}${decline.advice_code ? `, advice ${decline.advice_code}` : ''})`;
  if (isHardDecline(decline)) return { next: null, stop: `${what}: a hard decline is never retried, on this processor or another` };
  const rule = ruleFor(context.step.on_decline, decline.category);
  if (!rule) return { next: null, stop: `${what}: no on_decline rule names ${decline.category}, so the decline stands` };
  switch (rule.action) {
    case 'stop':
      return { next: null, stop: `${what}: on_decline says stop for ${decline.category}` };
    case 'next_processor': {
      if (following === undefined) return { next: null, stop: `${what}: on_decline says next_processor, but no processor of the step is left` };
      const refusal = context.retryRefusal?.(declines) ?? null;
      if (refusal) return { next: null, stop: `${what}: on_decline says next_processor, but ${refusal}` };
      return { next: { processor: following, position, stepUp: false, reason: `${what}: on_decline next_processor for ${decline.category}` }, stop: null };
    }
    case 'step_up_3ds':
      if (steppedUp || current.stepUp) return { next: null, stop: `${what} after a 3-D Secure step-up: the decline stands` };
      if (!context.consumerCanAuthenticate)
        return {
          next: null,
          stop: `${what}: on_decline says step_up_3ds, but no consumer can authenticate (a merchant-initiated payment, no hosted page, or three_ds off)`,
        };
      return {
        next: {
          processor: current.processor,
          position: current.position,
          stepUp: true,
          reason: `${what}: on_decline step_up_3ds, the same processor again with a 3-D Secure challenge on the hosted page`,
        },
        stop: null,
      };
  }
}

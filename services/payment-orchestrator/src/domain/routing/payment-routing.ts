import type { Decline } from '../declines/decline';
import type { RoutingChoice } from './choose-processor';
import type { RoutingStrategy } from '../flows/step-routing';

/**
 * Why each authorization attempt of a payment went where it went: the decision for each card (the
 * processors in the order they were to be tried, the reason, the rates or weights it used) and every
 * attempt with what came of it and what the flow did next. Shown as the payment's `routing`; also the
 * state a resumed authorization continues from (after a 3-D Secure step-up, the next processor is known).
 */
export interface PaymentRouting {
  strategy: RoutingStrategy;
  decisions: RoutingDecision[];
  attempts: RoutingAttempt[];
}

export interface RoutingDecision extends Omit<RoutingChoice, 'strategy'> {
  /** Consumer-present payments: the card (attempt on the hosted page) the decision was made for. */
  card_attempt?: number;
  decided_at: string;
}

/** What came of an attempt: authorized, declined, not answered, or the consumer sent to authenticate (3-D Secure). */
export type RoutedResult = 'authorized' | 'declined' | 'error' | 'authentication';

/** What the flow did after an attempt that did not authorize. */
export type AttemptFollowUp = 'next_processor' | 'step_up_3ds' | 'stopped';

export interface RoutingAttempt {
  processor: string;
  /** Its place in the decision's order (a step may name a processor twice); not shown. */
  position?: number;
  card_attempt?: number;
  /** Why this attempt went to this processor, in words. */
  reason: string;
  /** step_up: the same processor again with a 3-D Secure challenge, after the issuer asked for authentication. */
  three_ds?: 'step_up';
  result: RoutedResult;
  decline?: Decline;
  /** What the flow did next, and why (a stop says which rule or limit). */
  then?: { action: AttemptFollowUp; reason: string };
}

/** The latest decision (for the card being tried now). */
export function currentDecision(routing: PaymentRouting | null | undefined): RoutingDecision | undefined {
  return routing?.decisions[routing.decisions.length - 1];
}

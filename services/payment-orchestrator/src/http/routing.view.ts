import type { Decline } from '../domain/declines/decline';
import type { PaymentRouting } from '../domain/routing/payment-routing';
import type { RoutingChoice } from '../domain/routing/choose-processor';

/** A decline as merchants see it (payments, transactions, events say the same six fields). */
export const declineView = (decline: Decline) => ({
  category: decline.category,
  code: decline.code,
  processor_code: decline.processor_code,
  processor_message: decline.processor_message,
  advice_code: decline.advice_code,
  retryable: decline.retryable,
});

/** What a routing decision says: the processors in the order they were to be tried, the reason, and what it compared. */
export function choiceView(choice: Omit<RoutingChoice, 'strategy'>): Record<string, unknown> {
  return {
    processors: [...choice.order],
    reason: choice.reason,
    detail: choice.detail,
    ...(choice.segment ? { segment: { ...choice.segment } } : {}),
    ...(choice.level ? { segment_level: choice.level } : {}),
    ...(choice.rates
      ? {
          rates: choice.rates.map((rate) => ({
            processor: rate.processor,
            attempts: rate.attempts,
            approved: rate.approved,
            declined: rate.declined,
            errors: rate.errors,
            authorization_rate: rate.rate,
          })),
        }
      : {}),
    ...(choice.weights ? { weights: choice.weights.map((entry) => ({ ...entry })) } : {}),
  };
}

/** A payment's `routing`: each decision (one per card) and each authorization attempt with why it went there and what followed. */
export function routingView(routing: PaymentRouting): Record<string, unknown> {
  return {
    strategy: routing.strategy,
    decisions: routing.decisions.map((decision) => ({
      ...(decision.card_attempt ? { card_attempt: decision.card_attempt } : {}),
      ...choiceView(decision),
      decided_at: decision.decided_at,
    })),
    attempts: routing.attempts.map((attempt) => ({
      processor: attempt.processor,
      ...(attempt.card_attempt ? { card_attempt: attempt.card_attempt } : {}),
      reason: attempt.reason,
      ...(attempt.three_ds ? { three_ds: attempt.three_ds } : {}),
      result: attempt.result,
      ...(attempt.decline ? { decline: declineView(attempt.decline) } : {}),
      ...(attempt.then ? { then: { ...attempt.then } } : {}),
    })),
  };
}

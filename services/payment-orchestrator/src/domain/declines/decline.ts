/**
 * A declined (or unanswered) authorization, normalised across processors: every failed authorization
 * carries one, on its transaction, on the payment and in payment.failed / payment.attempt_failed. Each
 * processor plugin maps its documented codes into it (`processors/<id>/<id>.declines.ts`); the engine
 * decides from it alone whether a flow's `on_decline` rule may send the payment on.
 */

import { DECLINE_CATEGORIES } from '@vaultline/contracts';

/** What kind of decline: the vocabulary flows' `on_decline` rules and the routing statistics speak (declared with the events). */
export { DECLINE_CATEGORIES };
export type DeclineCategory = (typeof DECLINE_CATEGORIES)[number];

export interface Decline {
  category: DeclineCategory;
  /** Ours: the transaction's failure_reason (card_declined, insufficient_funds, card_blocked…). */
  code: string;
  /** The processor's own code as it sent it (Adyen's refusalReasonCode, Stripe's decline_code, Checkout.com's response_code). */
  processor_code: string | null;
  /** The processor's words for it (Adyen's refusalReason, Stripe's message, Checkout.com's response_summary). Never card data. */
  processor_message: string | null;
  /**
   * The issuer's or the scheme's advice as the processor passed it on: a Mastercard Merchant Advice Code
   * (01, 02, 03, 21, 24–30), Stripe's advice_code (try_again_later, do_not_try_again, confirm_card_data), a
   * Checkout.com recommendation code (01, 02, 03). Null when none came.
   */
  advice_code: string | null;
  /** False when the issuer or the scheme forbids another attempt with this card: it is then never retried anywhere. */
  retryable: boolean;
}

/**
 * Declines that say the card itself must not be charged (reported lost or stolen, fraud, a card that
 * does not exist): never retried, on another processor or later, whatever a flow says.
 */
export const HARD_DECLINE_CATEGORIES: readonly DeclineCategory[] = ['lost_or_stolen', 'suspected_fraud', 'invalid_card'];

export function isDeclineCategory(value: string): value is DeclineCategory {
  return (DECLINE_CATEGORIES as readonly string[]).includes(value);
}

/**
 * Advice codes that forbid another attempt: Mastercard MAC 03 (do not try again) and 21 (payment
 * cancellation: the cardholder stopped the agreement), Checkout.com's recommendation code 03 (do not try
 * again, its word for Visa's category 1 and MAC 03), Stripe's do_not_try_again.
 */
const NEVER_RETRY_ADVICE = new Set(['03', '21', 'do_not_try_again']);

/** Whether the scheme's (or the issuer's) advice forbids any further attempt with this card. */
export function adviceForbidsRetry(adviceCode: string | null): boolean {
  return adviceCode !== null && NEVER_RETRY_ADVICE.has(adviceCode.trim().toLowerCase());
}

/**
 * A hard decline: its category says the card must not be charged, its advice forbids another attempt, or
 * the plugin found the scheme forbids one (Visa category 1). Checked by the engine before any retry, so a
 * plugin that forgot the advice cannot make a retry happen.
 */
export function isHardDecline(decline: Decline): boolean {
  return HARD_DECLINE_CATEGORIES.includes(decline.category) || adviceForbidsRetry(decline.advice_code) || !decline.retryable;
}

/** A decline from a processor's table entry and what the processor sent; hard categories and forbidding advice are never retryable. */
export function declineOf(
  entry: { category: DeclineCategory; code: string },
  sent: { processor_code: string | null; processor_message: string | null; advice_code: string | null; scheme_forbids_retry?: boolean },
): Decline {
  const retryable = !HARD_DECLINE_CATEGORIES.includes(entry.category) && !adviceForbidsRetry(sent.advice_code) && sent.scheme_forbids_retry !== true;
  return {
    category: entry.category,
    code: entry.code,
    processor_code: sent.processor_code,
    processor_message: sent.processor_message,
    advice_code: sent.advice_code,
    retryable,
  };
}

/**
 * Our failure reasons as categories: for an outcome whose plugin named no decline (a processor added
 * without a declines table, the engine's own failures) and for the engine's errors (no answer: a timeout,
 * a 5xx). A processor's own failure (processor_*: a refused request, a bad answer, its configuration)
 * is the processor's, not the card's: processor_unavailable, which a flow may send to the next processor.
 */
const CATEGORY_OF_REASON: Record<string, DeclineCategory> = {
  authentication_required: 'authentication_required',
  insufficient_funds: 'insufficient_funds',
  card_declined: 'do_not_honor',
  suspected_fraud: 'suspected_fraud',
  invalid_card_number: 'invalid_card',
  invalid_security_code: 'invalid_card',
  expired_card: 'expired_card',
  card_blocked: 'lost_or_stolen',
  lost_or_stolen: 'lost_or_stolen',
  limit_exceeded: 'limit_exceeded',
  issuer_unavailable: 'processor_unavailable',
};

export function declineOfReason(failureReason: string, processorCode: string | null = null): Decline {
  const category = CATEGORY_OF_REASON[failureReason] ?? (failureReason.startsWith('processor_') ? 'processor_unavailable' : 'other');
  return declineOf({ category, code: failureReason }, { processor_code: processorCode, processor_message: null, advice_code: null });
}

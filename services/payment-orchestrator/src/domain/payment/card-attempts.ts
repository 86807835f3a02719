import { domainEvent, paymentAttemptFailedV1, type DomainEvent } from '@vaultline/contracts';
import { scopeOfDocument } from '@vaultline/core';
import type { AuthenticationResult } from '../payment-vocabulary/authentication';
import type { Decline } from '../declines/decline';
import { newProgress } from './create-payment';
import { effectiveTime, type FailedCardAttempt, type Payment } from './payment';
import { isConsumerPresent } from '../payment-vocabulary/use-case';
import { declineData, paymentEventData } from './payment-events';

/**
 * Another card on the hosted page. A consumer-present payment whose card is declined (or whose 3-D Secure
 * challenge fails) is not over while its session is open: it stays `processing`, without a card, and the
 * hosted page takes another one in the same session (the vault limits the attempts per session and per
 * address). Each card is an attempt: its transactions carry its number, the merchant hears
 * `payment.attempt_failed` for each failed one, and the payment fails with the last attempt's reason only
 * when the session ends (it expires, or the consumer leaves the page: checkout.session.abandoned).
 *
 * What stays final at once: failures that are not about the card (a processor or configuration error, a
 * risk decline, the live-mode simulator rule), a payment with a stored card (there is no other card to
 * offer) and a session already past its expiry.
 */

/** Failure reasons another card cannot help with: the processor, the flow or the merchant's set-up failed, not the card. */
const NOT_ABOUT_THE_CARD = new Set([
  'capability_missing',
  'simulator_not_allowed_in_live_mode',
  'cancelled',
  'unexpected_challenge',
  'authentication_abandoned',
  'risk_declined',
  'session_expired',
  'session_abandoned',
]);

/** Whether another card may succeed where this failure reason came from (declines and failed challenges: yes; processor errors: no). */
export function anotherCardMayWork(failureReason: string): boolean {
  return !failureReason.startsWith('processor_') && !NOT_ABOUT_THE_CARD.has(failureReason);
}

/** Whether the payment waits for another card after this failure: consumer present, a card form, the session still open. */
export function canTakeAnotherCard(payment: Payment, failureReason: string, now: Date): boolean {
  const session = payment.session;
  return (
    isConsumerPresent(payment.use_case) &&
    session !== null &&
    !session.stored_card &&
    Date.parse(session.expires_at) > now.getTime() &&
    anotherCardMayWork(failureReason)
  );
}

/** The card attempt a payment is on (1 for payments made before attempts were counted). */
export function currentAttempt(payment: Pick<Payment, 'card_attempts'>): number {
  return payment.card_attempts ?? 1;
}

/**
 * The payment after a failed card: processing, without a card (its source, token and scheme go; the
 * failed card's masked number stays in `last_failed_attempt`), its flow from the first step, due again at
 * the session's expiry. The transactions recorded so far keep their numbers.
 */
export function awaitingAnotherCard(
  payment: Payment,
  failureReason: string,
  authentication: AuthenticationResult | null,
  now: Date,
  decline: Decline | null = null,
): Payment {
  const attempt: FailedCardAttempt = {
    number: currentAttempt(payment),
    failure_reason: failureReason,
    masked_account_number: payment.source?.masked_account_number ?? null,
    failed_at: effectiveTime(payment, now).toISOString(),
    ...(authentication ? { authentication } : {}),
    ...(decline ? { decline } : {}),
  };
  return {
    ...payment,
    token_id: null,
    source: null,
    card_scheme: null,
    card_country: null,
    card_submitted_at: null,
    security_code_expires_at: null,
    authentication: null,
    pending_authentication: null,
    network_transaction_reference: null,
    progress: { ...newProgress(), transactions: payment.progress.transactions },
    last_failed_attempt: attempt,
    next_run_at: payment.session?.expires_at ?? null,
    updated_at: now.toISOString(),
  };
}

/** Why a payment that waited for a card fails when its session ends: the last card's reason, else `ending` (nothing was tried). */
export function endingReason(payment: Pick<Payment, 'last_failed_attempt'>, ending: 'session_expired' | 'session_abandoned'): string {
  return payment.last_failed_attempt?.failure_reason ?? ending;
}

/** What a payment failed when its session ended says: the last card's reason and decline (none when nothing was tried). */
export function endingChanges(
  payment: Pick<Payment, 'last_failed_attempt'>,
  ending: 'session_expired' | 'session_abandoned',
): Pick<Payment, 'failure_reason' | 'decline'> {
  return { failure_reason: endingReason(payment, ending), decline: payment.last_failed_attempt?.decline ?? null };
}

/** payment.attempt_failed: the payment as it waits for another card, and the card that failed. */
export function paymentAttemptFailedEvent(payment: Payment, at: Date): DomainEvent {
  const attempt = payment.last_failed_attempt;
  if (!attempt) throw new Error('payment.attempt_failed needs a failed attempt');
  const { authentication } = attempt;
  return domainEvent(paymentAttemptFailedV1, {
    scope: scopeOfDocument(payment),
    occurredAt: at,
    data: {
      ...paymentEventData(payment),
      attempt: {
        number: attempt.number,
        failure_reason: attempt.failure_reason,
        masked_account_number: attempt.masked_account_number,
        ...(authentication
          ? {
              authentication: {
                type: authentication.type,
                version: authentication.version,
                status: authentication.status,
                eci: authentication.eci,
                liability_shift: authentication.liability_shift,
              },
            }
          : {}),
        ...(attempt.decline ? { decline: declineData(attempt.decline) } : {}),
      },
    },
  });
}

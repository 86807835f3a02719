import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import { decideFlow, type FlowCatalogPorts } from '../flows/flow-catalog';
import { usesSimulator } from '../flows/flow';
import { securityCodeExpiresAt, type Payment } from './payment';
import { paymentMovedEvent } from './payment-events';
import { movePayment } from './payment-status';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { BrowserInfo } from '../payment-vocabulary/authentication';

export interface CompleteCheckoutSessionPorts extends FlowCatalogPorts {
  payments: PaymentRepository;
  clock: Clock;
}

/** What checkout.session.completed carries: the token and the card's display data, never the number. */
export interface CompletedSession {
  session_id: string;
  payment_id: string;
  token_id: string;
  card: {
    masked_account_number: string;
    scheme: string;
    expiry_month: number;
    expiry_year: number;
    cardholder_name: string | null;
    submitted_at: string;
  };
  /** The consumer's browser, for 3-D Secure 2 (absent when the page sent none). */
  browser?: BrowserInfo;
  /** Which card of the session (1, 2 after a failed one…); absent in older events: 1. */
  attempt?: number;
}

/** Resolves with the payment to run now, or null when the event changed nothing (unknown, already completed, expired). */
export type CompleteCheckoutSession = (uow: UnitOfWork, scope: Scope, session: CompletedSession) => Promise<Payment | null>;

/**
 * The consumer entered the card: the payment gets its source and token, the flow is chosen again with
 * the card's scheme, and the payment is due at once. Idempotent: a payment that already has its card
 * (a redelivery, or a second event for the session) or is no longer processing is left alone, and so is
 * a completion of another attempt than the one the payment waits for (after a failed card: the next one).
 */
export function completeCheckoutSession(ports: CompleteCheckoutSessionPorts): CompleteCheckoutSession {
  const { payments, clock } = ports;
  return async (uow, scope, session) => {
    const payment = await payments.get(scope, session.payment_id);
    if (!payment || payment.session?.id !== session.session_id) return null;
    if (payment.status !== 'processing' || payment.token_id !== null) return null;
    const attempt = session.attempt ?? 1;
    if (attempt !== (payment.card_attempts ?? 0) + 1) return null;
    // A session showing a stored card completes with that card only.
    if (payment.session.stored_card && payment.session.stored_card.token_id !== session.token_id) return null;
    const now = clock.now();
    const { card } = session;
    const withCard: Payment = {
      ...payment,
      session: { ...payment.session, ...(session.browser ? { browser: session.browser } : {}) },
      token_id: session.token_id,
      card_attempts: attempt,
      card_scheme: card.scheme.toUpperCase(),
      source: {
        type: 'card',
        cardholder_name: card.cardholder_name,
        expiry_month: card.expiry_month,
        expiry_year: card.expiry_year,
        masked_account_number: card.masked_account_number,
        pan_type: 'FPAN',
      },
      card_submitted_at: card.submitted_at,
      // The vault stored the security code with the token (submitted_at is the token's creation).
      security_code_expires_at: securityCodeExpiresAt(card.submitted_at),
      updated_at: now.toISOString(),
    };
    const decision = await decideFlow(ports, scope, {
      use_case: payment.use_case,
      currency_code: payment.currency_code,
      amount: payment.amount.requested,
      reference: payment.reference,
      scheme: withCard.card_scheme,
      metadata: payment.metadata,
    });
    if (payment.mode === 'live' && usesSimulator(decision.flow)) {
      // A rule on the scheme chose a simulator flow: refused as at creation, never a simulated success.
      const failed = movePayment(withCard, 'failed', { decision, failure_reason: 'simulator_not_allowed_in_live_mode', next_run_at: null }, now);
      uow.publish(paymentMovedEvent(failed, now));
      payments.update(uow, failed);
      return null;
    }
    return payments.update(uow, { ...withCard, decision, next_run_at: now.toISOString() });
  };
}

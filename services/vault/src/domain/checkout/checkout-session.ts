import type { ConsumerAction, StoredCardOffer } from '@vaultline/contracts';
import { AppError, NotFoundError } from '@vaultline/core';
import type { ScopedDocument } from '@vaultline/store';

/** A consumer sent to authenticate (3-D Secure, checkout-authentication.ts): where to, and whether they came back. */
export interface SessionAuthentication {
  action: ConsumerAction;
  /** required: the consumer is to go (or is away); returned: back, the orchestrator resumes the payment. */
  state: 'required' | 'returned';
  requested_at: string;
  returned_at: string | null;
}

export type PaymentProgress = 'processing' | 'authorized' | 'capturing' | 'captured' | 'failed' | 'canceled';

/** A card that failed in this session while another could still be tried (payment.attempt_failed): what the page tells the consumer. */
export interface SessionFailedAttempt {
  number: number;
  failure_reason: string;
  masked_account_number: string | null;
}

/**
 * What the vault knows of a consumer-present session: learnt from checkout.session.opened, then
 * completed by the consumer's card entry, then followed through payment.* events. merchant_id is
 * the merchant whose payment opened it and whose token the card becomes, mode the payment's mode (the
 * token is made in it); the public page knows
 * only the session id, so the session is read with a global lookup.
 */
export interface CheckoutSessionRecord extends ScopedDocument {
  payment_id: string;
  amount: number;
  currency: string;
  expires_at: string;
  /** Only https (http on loopback): the page offers and follows it. */
  return_url: string | null;
  /**
   * The only origins that may frame the page (frame-ancestors) and receive its messages; absent on
   * sessions stored before it existed, read as none.
   */
  allowed_origins?: string[];
  /** The merchant's order line shown under the amount; absent on sessions stored before it existed. */
  description?: string | null;
  /** The page's language (a supported locale); absent or null: the consumer's browser decides. */
  locale?: string | null;
  /**
   * A card the merchant stored (earlier payment interface): the page shows it masked and the consumer
   * confirms it instead of entering one. Absent for a card entry (and on older sessions).
   */
  stored_card?: StoredCardOffer;
  /**
   * open: waiting for a card (the first, or another after a failed one); completed: a card is in, the payment
   * decides; canceled: the merchant canceled the payment before a card was entered; abandoned: the consumer
   * left the page while it waited for a card (the payment fails). No card is taken in the last two.
   */
  state: 'open' | 'completed' | 'canceled' | 'abandoned';
  token_id: string | null;
  masked_account_number: string | null;
  scheme: string | null;
  payment_status: PaymentProgress;
  failure_reason: string | null;
  opened_at: string;
  completed_at: string | null;
  /** 3-D Secure: where the consumer must go, and whether they are back; absent while none was asked. */
  authentication?: SessionAuthentication | null;
  /** How many cards were entered in this session (the number of the current or last one); absent before the first. */
  attempt?: number;
  /** The latest card that failed while the payment could take another; absent or null when none did. */
  last_failed_attempt?: SessionFailedAttempt | null;
  /** The merchant's name from the payment (shown unless the shop set a display name); absent on older sessions. */
  merchant_name?: string | null;
}

/** The stored card cannot be confirmed here: the session offers none, or it needs a security code this page cannot take yet. */
export class StoredCardNotConfirmable extends AppError {
  constructor(detail: string) {
    super('stored_card_not_confirmable', 409, detail);
  }
}

/**
 * A session that offers a stored card (a payment from a stored credential, a mandate) completes only with
 * that card: a newly entered one would make a token the payment never uses, and the payment would wait
 * for a card until the session expires.
 */
export class StoredCardSession extends AppError {
  constructor() {
    super(
      'stored_card_session',
      409,
      'This session pays with the stored card it offers: confirm it (POST /sessions/{session_id}/stored-card) instead of entering a card.',
    );
  }
}

export class CheckoutSessionNotFound extends NotFoundError {
  constructor() {
    super('checkout_session');
  }
}

export class CheckoutSessionExpired extends AppError {
  constructor() {
    super('checkout_session_expired', 410, 'The checkout session has expired; ask the merchant to start the payment again.');
  }
}

export class CheckoutSessionUsed extends AppError {
  constructor() {
    super('checkout_session_already_used', 409, 'Card details were already submitted in this checkout session.');
  }
}

export class CheckoutSessionAbandoned extends AppError {
  constructor() {
    super('checkout_session_abandoned', 409, 'The consumer left this checkout session; its payment failed and no card is taken.');
  }
}

export class CheckoutSessionCanceled extends AppError {
  constructor() {
    super('checkout_session_canceled', 409, 'The merchant canceled this payment; nothing was charged and no card is taken.');
  }
}

export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_attempts', 429, `Too many attempts; try again in ${retryAfterSeconds} s.`, { retry_after: retryAfterSeconds });
  }
}

/** The session does not wait for a card (a card is being decided, or the session ended): it cannot be abandoned. */
export class CheckoutSessionNotAbandonable extends AppError {
  constructor(detail: string) {
    super('checkout_session_not_abandonable', 409, detail);
  }
}

/** A session as the hosted page sees it now: an open session past its expiry is expired (see http/checkout-status.view.ts). */
export interface CheckoutSessionState {
  session: CheckoutSessionRecord;
  state: 'open' | 'completed' | 'expired' | 'canceled' | 'abandoned';
}

export function stateAt(session: CheckoutSessionRecord, now: Date): CheckoutSessionState {
  const expired = session.state === 'open' && Date.parse(session.expires_at) <= now.getTime();
  return { session, state: expired ? 'expired' : session.state };
}

/** Who may frame the session's page: nobody when the session is unknown or allows no origin. */
export function framingOriginsOf(session: CheckoutSessionRecord | null): string[] {
  return session?.allowed_origins ?? [];
}

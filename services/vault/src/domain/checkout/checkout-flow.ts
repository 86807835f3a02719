import { scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import {
  MAX_CHECKOUT_DESCRIPTION_LENGTH,
  allowedOriginsOf,
  checkoutLocaleOf,
  checkoutSessionAbandonedV1,
  checkoutSessionCompletedV1,
  domainEvent,
  isAllowedReturnUrl,
  type BrowserInfoData,
  type EventData,
  type checkoutSessionOpenedV1,
} from '@vaultline/contracts';
import type { UnitOfWork } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import type { CheckoutSessionRepository, TokenRepository, TransactionRunner } from '../ports';
import type { VaultKeys } from '../keys/vault-keys';
import { validateSecurityCode } from '../card/validate-card';
import { storeSecurityCode } from '../tokens/security-code';
import { cipherOf } from '../tokens/token-cipher';
import type { CardInput } from '../card/validate-card';
import type { CreateToken } from '../tokens/create-token';
import {
  CheckoutSessionAbandoned,
  CheckoutSessionCanceled,
  CheckoutSessionNotAbandonable,
  CheckoutSessionExpired,
  CheckoutSessionNotFound,
  CheckoutSessionUsed,
  StoredCardNotConfirmable,
  StoredCardSession,
  TooManyAttempts,
  framingOriginsOf,
  stateAt,
  type CheckoutSessionRecord,
  type CheckoutSessionState,
  type PaymentProgress,
  type SessionFailedAttempt,
} from './checkout-session';
import type { SessionArrivals } from './session-arrivals';
import { logoOriginOf } from '../branding/checkout-branding';
import type { CheckoutBranding, GetCheckoutBranding } from '../branding/manage-branding';
import { browserWithAccept, type SubmittedBrowser } from './checkout-authentication';

export interface CheckoutLimits {
  /** Card submissions per session per window (typos included, and every card tried after a failed one). */
  perSession: number;
  /** Card submissions per client address per window. */
  perAddress: number;
  /**
   * The per-address limit for a test-mode session submitted from a loopback address: on a laptop every
   * browser (and every test) is 127.0.0.1, so one shared budget would refuse a newcomer's first card.
   */
  perLoopbackTestAddress: number;
  windowMs: number;
}

/** 127.0.0.0/8 and ::1, also IPv4-mapped: the address of a browser on the machine that runs the service. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.toLowerCase().replace(/^::ffff:/, '');
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export type OpenCheckoutSession = (uow: UnitOfWork, scope: Scope, data: EventData<typeof checkoutSessionOpenedV1>) => Promise<void>;

/**
 * checkout.session.opened: remember the session (idempotent: a redelivery changes nothing). The
 * orchestrator validated return_url and allowed_origins already; what a page would follow or trust
 * is checked again here, so a bad event cannot make the page navigate to javascript: or post to `*`.
 */
export function openCheckoutSession({
  sessions,
  clock,
  arrivals,
}: {
  sessions: CheckoutSessionRepository;
  clock: Clock;
  arrivals: SessionArrivals;
}): OpenCheckoutSession {
  return async (uow, scope, data) => {
    if (await sessions.get(data.session_id)) return;
    uow.afterCommit(() => arrivals.announce(data.session_id));
    sessions.insert(uow, {
      id: data.session_id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      payment_id: data.payment_id,
      amount: data.amount,
      currency: data.currency,
      expires_at: data.expires_at,
      return_url: data.return_url !== null && isAllowedReturnUrl(data.return_url) ? data.return_url : null,
      allowed_origins: allowedOriginsOf(data.allowed_origins ?? []),
      description: data.description ? data.description.slice(0, MAX_CHECKOUT_DESCRIPTION_LENGTH) : null,
      locale: data.locale ? checkoutLocaleOf(data.locale) : null,
      ...(data.stored_card ? { stored_card: { ...data.stored_card } } : {}),
      merchant_name: data.merchant_name ?? null,
      state: 'open',
      token_id: null,
      masked_account_number: null,
      scheme: null,
      payment_status: 'processing',
      failure_reason: null,
      opened_at: clock.now().toISOString(),
      completed_at: null,
    });
  };
}

export type CloseCanceledSession = (uow: UnitOfWork, paymentId: string) => Promise<void>;

/**
 * payment.canceled: the merchant canceled the payment. A session still open closes (a card submitted
 * afterwards answers 409 checkout_session_canceled, and the page says the payment was canceled); a
 * completed one (an authorization released) shows canceled.
 */
export function closeCanceledSession({ sessions }: { sessions: CheckoutSessionRepository }): CloseCanceledSession {
  return async (uow, paymentId) => {
    const session = await sessions.findByPaymentId(paymentId);
    if (!session || session.payment_status === 'canceled') return;
    sessions.update(uow, { ...session, state: session.state === 'open' ? 'canceled' : session.state, payment_status: 'canceled', failure_reason: null });
  };
}

export type ReopenAfterFailedAttempt = (uow: UnitOfWork, paymentId: string, attempt: SessionFailedAttempt) => Promise<void>;

/**
 * payment.attempt_failed: the card the session completed with failed, and the payment waits for another.
 * The session opens again for the next card (its card display and 3-D Secure step cleared), and keeps the
 * failed attempt for the page to name. Only the attempt the session is on counts: a late or redelivered
 * event of an earlier card changes nothing.
 */
export function reopenAfterFailedAttempt({ sessions }: { sessions: CheckoutSessionRepository }): ReopenAfterFailedAttempt {
  return async (uow, paymentId, attempt) => {
    const session = await sessions.findByPaymentId(paymentId);
    if (!session || session.state !== 'completed' || session.payment_status !== 'processing') return;
    if ((session.attempt ?? 1) !== attempt.number) return;
    sessions.update(uow, {
      ...session,
      state: 'open',
      attempt: attempt.number,
      token_id: null,
      masked_account_number: null,
      scheme: null,
      completed_at: null,
      authentication: null,
      last_failed_attempt: { number: attempt.number, failure_reason: attempt.failure_reason, masked_account_number: attempt.masked_account_number },
    });
  };
}

export type AbandonCheckoutSession = (sessionId: string) => Promise<CheckoutSessionState>;

/**
 * The consumer leaves the page while it waits for a card ("Return to the shop" after a failed card): the
 * session closes (no card is taken any more) and checkout.session.abandoned, in the same commit, lets the
 * payment fail at once with the last card's reason, so the shop reads a final status when the consumer
 * arrives there. A session with a card in flight, or already ended, is not abandoned (409).
 */
export function abandonCheckoutSession({
  sessions,
  transaction,
  clock,
}: {
  sessions: CheckoutSessionRepository;
  transaction: TransactionRunner;
  clock: Clock;
}): AbandonCheckoutSession {
  return async (sessionId) => {
    const session = await sessions.get(sessionId);
    if (!session) throw new CheckoutSessionNotFound();
    const now = clock.now();
    const { state } = stateAt(session, now);
    if (state === 'abandoned') return stateAt(session, now);
    if (state !== 'open')
      throw new CheckoutSessionNotAbandonable(`This session is ${state === 'completed' ? 'deciding the card entered' : state}: it does not wait for a card.`);
    try {
      const abandoned = await transaction((uow) => {
        uow.publish(
          domainEvent(checkoutSessionAbandonedV1, {
            scope: scopeOfDocument(session),
            occurredAt: now,
            data: { session_id: session.id, payment_id: session.payment_id, abandoned_at: now.toISOString() },
          }),
        );
        return sessions.update(uow, { ...session, state: 'abandoned' });
      });
      return stateAt(abandoned, now);
    } catch (error) {
      // A card submitted at the same moment committed first: the session decides that card.
      if (error instanceof Error && 'code' in error && error.code === 'concurrent_modification')
        throw new CheckoutSessionNotAbandonable('A card was entered at the same moment: the session decides that card.');
      throw error;
    }
  };
}

export type RecordPaymentProgress = (uow: UnitOfWork, paymentId: string, status: PaymentProgress, failureReason: string | null) => Promise<void>;

/** payment.*: keep the progress the hosted page shows. Payments without a session here are not ours to show. */
export function recordPaymentProgress({ sessions }: { sessions: CheckoutSessionRepository }): RecordPaymentProgress {
  return async (uow, paymentId, status, failureReason) => {
    const session = await sessions.findByPaymentId(paymentId);
    if (!session) return;
    // Progress only moves forward: a redelivered or late payment.processing must not undo a captured or
    // failed payment. It also keeps a session that is already processing from being rewritten for
    // payment.processing, which would bump its version under a card submission in flight.
    if (!movesForward(session.payment_status, status)) return;
    sessions.update(uow, { ...session, payment_status: status, failure_reason: failureReason });
  };
}

/** The payment's states in the order a payment reaches them; captured, failed and canceled are final. */
const PROGRESS_RANK: Record<PaymentProgress, number> = { processing: 0, authorized: 1, capturing: 2, captured: 3, failed: 3, canceled: 3 };

function movesForward(current: PaymentProgress, next: PaymentProgress): boolean {
  return PROGRESS_RANK[next] > PROGRESS_RANK[current];
}

export type CheckoutStatus = (sessionId: string) => Promise<CheckoutSessionState>;

/**
 * How long a status read waits for a session that has not arrived yet (see SessionArrivals), how often it
 * looks again meanwhile, and how many reads may wait at once: the route is public, so reads of made-up
 * ids beyond that many answer 404 at once instead of holding a connection and re-reading the store.
 */
export interface ArrivalWait {
  maxMs: number;
  recheckMs: number;
  maxWaiting: number;
}

export function checkoutStatus({
  sessions,
  clock,
  arrivals,
  wait,
}: {
  sessions: CheckoutSessionRepository;
  clock: Clock;
  arrivals: SessionArrivals;
  wait: ArrivalWait;
}): CheckoutStatus {
  let waiting = 0;
  return async (sessionId) => {
    let session = await sessions.get(sessionId);
    if (!session && waiting < wait.maxWaiting) {
      waiting++;
      try {
        const deadline = Date.now() + wait.maxMs;
        for (let left = wait.maxMs; !session && left > 0; left = deadline - Date.now()) {
          await arrivals.nextChance(sessionId, Math.min(left, wait.recheckMs));
          session = await sessions.get(sessionId);
        }
      } finally {
        waiting--;
      }
    }
    if (!session) throw new CheckoutSessionNotFound();
    return stateAt(session, clock.now());
  };
}

export type CheckoutFraming = (sessionId: string) => Promise<{ known: boolean; allowedOrigins: string[]; imageOrigins: string[] }>;

/**
 * Who may frame a session's page, and where its images may come from beyond the vault itself (the
 * merchant's logo host); an unknown session (perhaps not arrived yet) allows nobody and nothing.
 */
export function checkoutFraming({ sessions, branding }: { sessions: CheckoutSessionRepository; branding: GetCheckoutBranding }): CheckoutFraming {
  return async (sessionId) => {
    const session = await sessions.get(sessionId);
    const logoOrigin = session ? logoOriginOf((await branding({ merchantId: session.merchant_id })).logo) : null;
    return { known: session !== null, allowedOrigins: framingOriginsOf(session), imageOrigins: logoOrigin ? [logoOrigin] : [] };
  };
}

export type CheckoutPageStatus = (sessionId: string) => Promise<CheckoutSessionState & { branding: CheckoutBranding }>;

/** What the hosted page reads: the session's state and its merchant's look (name, colour, logo). */
export function checkoutPageStatus({ status, branding }: { status: CheckoutStatus; branding: GetCheckoutBranding }): CheckoutPageStatus {
  return async (sessionId) => {
    const state = await status(sessionId);
    return { ...state, branding: await branding({ merchantId: state.session.merchant_id }) };
  };
}

export interface SubmitCheckoutCardPorts {
  sessions: CheckoutSessionRepository;
  createToken: CreateToken;
  ttl: TtlStore;
  clock: Clock;
  limits: CheckoutLimits;
}
export type SubmitCheckoutCard = (command: {
  sessionId: string;
  clientAddress: string;
  card: CardInput;
  browser?: SubmittedBrowser;
}) => Promise<CheckoutSessionState>;

/**
 * The consumer's card entry. The session id is the capability: single use (the session's optimistic
 * version makes a second submission fail even when two arrive at once), it expires, and attempts are
 * limited per client address (checked first) and per session. Token, session completion and both events
 * commit together.
 */
/**
 * Attempts are limited per client address (checked first: a blocked address must not create a counter
 * per session id it makes up) and per session; then the session must be open and unexpired. The session
 * is read first only to know the address's limit (a test session from loopback has the larger one); the
 * counters decide before anything of the session is told.
 */
async function openSessionForAttempt(
  { sessions, ttl, clock, limits }: Pick<SubmitCheckoutCardPorts, 'sessions' | 'ttl' | 'clock' | 'limits'>,
  sessionId: string,
  clientAddress: string,
): Promise<CheckoutSessionRecord> {
  const enforceLimit = async (key: string, max: number): Promise<void> => {
    const count = await ttl.increment(key, limits.windowMs);
    if (count > max) {
      const remaining = (await ttl.remainingMs(key)) ?? limits.windowMs;
      throw new TooManyAttempts(Math.max(1, Math.ceil(remaining / 1000)));
    }
  };
  const session = await sessions.get(sessionId);
  const addressLimit = session?.mode === 'test' && isLoopbackAddress(clientAddress) ? limits.perLoopbackTestAddress : limits.perAddress;
  await enforceLimit(`vault:checkout-attempts:address:${clientAddress}`, addressLimit);
  await enforceLimit(`vault:checkout-attempts:session:${sessionId}`, limits.perSession);
  if (!session) throw new CheckoutSessionNotFound();
  if (session.state === 'canceled') throw new CheckoutSessionCanceled();
  if (session.state === 'abandoned') throw new CheckoutSessionAbandoned();
  if (session.state !== 'open') throw new CheckoutSessionUsed();
  if (Date.parse(session.expires_at) <= clock.now().getTime()) throw new CheckoutSessionExpired();
  return session;
}

/** The card the session completes with: the token and what the payment may show and route on (the event's card). */
type SessionCard = EventData<typeof checkoutSessionCompletedV1>['card'] & { token_id: string };

/** Completes the session and publishes checkout.session.completed in the same unit of work. */
function completeSession(
  uow: UnitOfWork,
  sessions: CheckoutSessionRepository,
  session: CheckoutSessionRecord,
  card: SessionCard,
  browser?: BrowserInfoData,
): CheckoutSessionRecord {
  const { token_id, submitted_at, ...display } = card;
  // The first card is attempt 1; a card entered after a failed one, the next number (the payment takes only the one it waits for).
  const attempt = (session.attempt ?? 0) + 1;
  const completed = sessions.update(uow, {
    ...session,
    state: 'completed',
    attempt,
    token_id,
    masked_account_number: card.masked_account_number,
    scheme: card.scheme,
    completed_at: submitted_at,
  });
  uow.publish(
    domainEvent(checkoutSessionCompletedV1, {
      scope: scopeOfDocument(session),
      data: { session_id: session.id, payment_id: session.payment_id, token_id, card: { ...display, submitted_at }, ...(browser ? { browser } : {}), attempt },
    }),
  );
  return completed;
}

/** Two submissions at once: the session's optimistic version lets one commit; the other was too late. */
function usedOnConflict(error: unknown): unknown {
  return error instanceof Error && 'code' in error && error.code === 'concurrent_modification' ? new CheckoutSessionUsed() : error;
}

export function submitCheckoutCard(ports: SubmitCheckoutCardPorts): SubmitCheckoutCard {
  const { sessions, createToken, clock } = ports;
  return async (command) => {
    const session = await openSessionForAttempt(ports, command.sessionId, command.clientAddress);
    if (session.stored_card) throw new StoredCardSession();
    const browser = await browserWithAccept(ports.ttl, session.id, command.browser);

    let completed: CheckoutSessionRecord = session;
    try {
      await createToken(
        {
          scope: scopeOfDocument(session),
          card: command.card,
          cardRules: { fieldPrefix: 'card.', requireSecurityCode: true },
          businessKey: null,
          source: 'checkout',
          correlationId: session.payment_id,
        },
        (uow, token, cardholderName) => {
          completed = completeSession(
            uow,
            sessions,
            session,
            {
              token_id: token.id,
              masked_account_number: token.masked_account_number,
              scheme: token.scheme,
              expiry_month: token.expiry_month,
              expiry_year: token.expiry_year,
              cardholder_name: cardholderName,
              submitted_at: token.created_at,
            },
            browser,
          );
        },
      );
    } catch (error) {
      throw usedOnConflict(error);
    }
    return stateAt(completed, clock.now());
  };
}

export interface ConfirmStoredCardPorts {
  sessions: CheckoutSessionRepository;
  tokens: Pick<TokenRepository, 'get' | 'update'>;
  keys: VaultKeys;
  transaction: TransactionRunner;
  ttl: TtlStore;
  clock: Clock;
  limits: CheckoutLimits;
}
export type ConfirmStoredCard = (command: {
  sessionId: string;
  clientAddress: string;
  securityCode: unknown;
  browser?: SubmittedBrowser;
}) => Promise<CheckoutSessionState>;

/**
 * The consumer confirms the stored card the session offers (earlier interface: COF payments and mandates
 * from a stored card): the session completes with the stored token, as a card entry would, and the
 * confirmation time is the consent time. The token must still be the session's merchant's and active.
 * When the flow's processor needs the security code, the consumer enters it here: it is kept for the
 * token for 15 minutes, encrypted, exactly as a code entered with a new card.
 */
export function confirmStoredCard(ports: ConfirmStoredCardPorts): ConfirmStoredCard {
  const { sessions, tokens, keys, transaction, ttl, clock } = ports;
  return async (command) => {
    const session = await openSessionForAttempt(ports, command.sessionId, command.clientAddress);
    const offer = session.stored_card;
    if (!offer) throw new StoredCardNotConfirmable('This session has no stored card: enter a card.');
    const token = await tokens.get(scopeOfDocument(session), offer.token_id);
    if (!token || token.status !== 'active') throw new StoredCardNotConfirmable('The stored card is no longer available.');
    const securityCode = offer.security_code_required ? validateSecurityCode(command.securityCode, token.scheme, 'security_code') : null;
    const browser = await browserWithAccept(ttl, session.id, command.browser);
    const now = clock.now().toISOString();
    if (securityCode !== null) await storeSecurityCode(ttl, cipherOf(keys, token), token.id, securityCode);
    try {
      const completed = await transaction((uow) => {
        if (securityCode !== null) tokens.update(uow, { ...token, security_code_stored_at: now });
        return completeSession(
          uow,
          sessions,
          session,
          {
            token_id: offer.token_id,
            masked_account_number: offer.masked_account_number,
            scheme: offer.scheme ?? token.scheme,
            expiry_month: offer.expiry_month,
            expiry_year: offer.expiry_year,
            cardholder_name: offer.cardholder_name,
            submitted_at: now,
          },
          browser,
        );
      });
      return stateAt(completed, clock.now());
    } catch (error) {
      throw usedOnConflict(error);
    }
  };
}

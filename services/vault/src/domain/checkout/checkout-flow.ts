import { eventMessage } from '@vaultline/bus';
import { checkoutSessionCompletedV1, type EventData, type checkoutSessionOpenedV1 } from '@vaultline/contracts';
import { SYSTEM_SCOPE, type UnitOfWork } from '@vaultline/store';
import type { VaultDeps } from '../ports';
import { validateCard, type CardInput } from '../card/validate-card';
import { createToken } from '../tokens/create-token';
import {
  CheckoutSessionExpired,
  CheckoutSessionNotFound,
  CheckoutSessionUsed,
  TooManyAttempts,
  toStatusView,
  type CheckoutSessionRecord,
  type CheckoutStatusView,
  type PaymentProgress,
} from './checkout-session';

export interface CheckoutLimits {
  /** Card submissions per session per window (typos included). */
  perSession: number;
  /** Card submissions per client address per window. */
  perAddress: number;
  windowMs: number;
}

/** checkout.session.opened: remember the session (idempotent: a redelivery changes nothing). */
export async function openCheckoutSession(
  deps: VaultDeps,
  uow: UnitOfWork,
  merchantId: string,
  data: EventData<typeof checkoutSessionOpenedV1>,
): Promise<void> {
  if (await deps.sessions.get(data.session_id)) return;
  deps.sessions.insert(uow, {
    id: data.session_id,
    merchant_id: SYSTEM_SCOPE,
    owner_merchant_id: merchantId,
    payment_id: data.payment_id,
    amount: data.amount,
    currency: data.currency,
    expires_at: data.expires_at,
    return_url: data.return_url,
    state: 'open',
    token_id: null,
    masked_account_number: null,
    scheme: null,
    payment_status: 'processing',
    failure_reason: null,
    opened_at: deps.clock.now().toISOString(),
    completed_at: null,
  });
}

/** payment.*: keep the progress the hosted page shows. Payments without a session here are not ours to show. */
export async function recordPaymentProgress(
  deps: VaultDeps,
  uow: UnitOfWork,
  paymentId: string,
  status: PaymentProgress,
  failureReason: string | null,
): Promise<void> {
  const session = await deps.sessions.findByPaymentId(paymentId);
  if (!session) return;
  // A session starts as processing: rewriting it for payment.processing would bump its version under
  // a card submission in flight, which then fails as if the card had been submitted twice.
  if (session.payment_status === status && session.failure_reason === failureReason) return;
  deps.sessions.update(uow, { ...session, payment_status: status, failure_reason: failureReason });
}

export async function checkoutStatus(deps: VaultDeps, sessionId: string): Promise<CheckoutStatusView> {
  const session = await deps.sessions.get(sessionId);
  if (!session) throw new CheckoutSessionNotFound();
  return toStatusView(session, deps.clock.now());
}

/**
 * The consumer's card entry. The session id is the capability: single use (the session's optimistic
 * version makes a second submission fail even when two arrive at once), it expires, and attempts are
 * limited per session and per client address. Token, session completion and both events commit together.
 */
export async function submitCheckoutCard(
  deps: VaultDeps,
  limits: CheckoutLimits,
  command: { sessionId: string; clientAddress: string; card: CardInput },
): Promise<CheckoutStatusView> {
  await enforceLimit(deps, limits, `vault:checkout-attempts:session:${command.sessionId}`, limits.perSession);
  await enforceLimit(deps, limits, `vault:checkout-attempts:address:${command.clientAddress}`, limits.perAddress);

  const session = await deps.sessions.get(command.sessionId);
  if (!session) throw new CheckoutSessionNotFound();
  if (session.state !== 'open') throw new CheckoutSessionUsed();
  if (Date.parse(session.expires_at) <= deps.clock.now().getTime()) throw new CheckoutSessionExpired();

  const card = validateCard(command.card, deps.clock, { fieldPrefix: 'card.', requireSecurityCode: true });
  let completed: CheckoutSessionRecord = session;
  try {
    await createToken(
      deps,
      { merchantId: session.owner_merchant_id, card, businessKey: null, source: 'checkout', correlationId: session.payment_id },
      (uow, token) => {
        completed = deps.sessions.update(uow, {
          ...session,
          state: 'completed',
          token_id: token.id,
          masked_account_number: token.masked_account_number,
          scheme: token.scheme,
          completed_at: token.created_at,
        });
        uow.publish(
          eventMessage(checkoutSessionCompletedV1, {
            merchantId: session.owner_merchant_id,
            data: {
              session_id: session.id,
              payment_id: session.payment_id,
              token_id: token.id,
              card: {
                masked_account_number: card.maskedAccountNumber,
                scheme: card.scheme,
                expiry_month: card.expiryMonth,
                expiry_year: card.expiryYear,
                cardholder_name: card.cardholderName,
                submitted_at: token.created_at,
              },
            },
          }),
        );
      },
    );
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'concurrent_modification') throw new CheckoutSessionUsed();
    throw error;
  }
  return toStatusView(completed, deps.clock.now());
}

async function enforceLimit(deps: VaultDeps, limits: CheckoutLimits, key: string, max: number): Promise<void> {
  const count = await deps.ttl.increment(key, limits.windowMs);
  if (count > max) {
    const remaining = (await deps.ttl.remainingMs(key)) ?? limits.windowMs;
    throw new TooManyAttempts(Math.ceil(remaining / 1000));
  }
}

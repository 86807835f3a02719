import { framingOriginsOf, type CheckoutSessionState, type PaymentProgress } from '../domain/checkout/checkout-session';

/** What the hosted page polls. */
export interface CheckoutStatusView {
  session_id: string;
  state: CheckoutSessionState['state'];
  amount: number;
  currency: string;
  payment_id: string;
  payment_status: PaymentProgress;
  failure_reason: string | null;
  masked_account_number: string | null;
  scheme: string | null;
  return_url: string | null;
  /** The page posts its messages to these origins only (each post reaches its parent only if the origin matches). */
  allowed_origins: string[];
  expires_at: string;
  /** The stored card the consumer is asked to confirm (no token id); absent when a card is to be entered. */
  stored_card?: { masked_account_number: string; scheme: string | null; expiry_month: number; expiry_year: number; cardholder_name: string | null; security_code_required: boolean };
}

export function toCheckoutStatusView({ session, state }: CheckoutSessionState): CheckoutStatusView {
  return {
    session_id: session.id,
    state,
    amount: session.amount,
    currency: session.currency,
    payment_id: session.payment_id,
    payment_status: session.payment_status,
    failure_reason: session.failure_reason,
    masked_account_number: session.masked_account_number,
    scheme: session.scheme,
    return_url: session.return_url,
    allowed_origins: framingOriginsOf(session),
    expires_at: session.expires_at,
    ...(session.stored_card ? { stored_card: storedCardView(session.stored_card) } : {}),
  };
}

function storedCardView({ token_id: _token, ...shown }: NonNullable<CheckoutSessionState['session']['stored_card']>) {
  return shown;
}

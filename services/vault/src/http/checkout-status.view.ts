import { minorUnitExponent } from '@vaultline/contracts';
import { framingOriginsOf, type CheckoutSessionRecord, type CheckoutSessionState, type PaymentProgress } from '../domain/checkout/checkout-session';
import { buttonTextColorFor, logoAddressFor } from '../domain/branding/checkout-branding';
import type { CheckoutBranding } from '../domain/branding/manage-branding';

/** What the hosted page polls. */
export interface CheckoutStatusView {
  session_id: string;
  state: CheckoutSessionState['state'];
  /** false for a test-mode session: the page shows a TEST MODE badge. */
  livemode: boolean;
  /** How many cards were entered in this session so far (0 before the first). */
  attempts: number;
  /**
   * The latest card that failed while the payment could take another: the page shows the form again with
   * its reason (state open), or the outcome once the payment failed with it. Null when none failed.
   */
  last_failed_attempt: { number: number; failure_reason: string; masked_account_number: string | null } | null;
  amount: number;
  currency: string;
  /** The currency's ISO 4217 exponent from the one table (libs/contracts): the page divides by it, never by Intl's fraction digits. */
  currency_exponent: number;
  payment_id: string;
  payment_status: PaymentProgress;
  failure_reason: string | null;
  masked_account_number: string | null;
  scheme: string | null;
  return_url: string | null;
  /** The page posts its messages to these origins only (each post reaches its parent only if the origin matches). */
  allowed_origins: string[];
  expires_at: string;
  /** The merchant's order line under the amount. */
  description: string | null;
  /** The language the merchant chose for the page; null: the browser's. */
  locale: string | null;
  /** The merchant's look (GET status only: the page reads it once it loads). */
  merchant?: MerchantBrandingView;
  /**
   * 3-D Secure: required while the consumer is to go to their bank (the page sends them to
   * /checkout/{id}/authenticate), returned once they are back; null when no authentication was asked.
   * Never the issuer's address or form: those stay on the server.
   */
  authentication: { state: 'required' | 'returned' } | null;
  /** The stored card the consumer is asked to confirm (no token id); absent when a card is to be entered. */
  stored_card?: {
    masked_account_number: string;
    scheme: string | null;
    expiry_month: number;
    expiry_year: number;
    cardholder_name: string | null;
    security_code_required: boolean;
  };
}

/** What the page shows of the merchant; button_text_color is black or white, whichever contrasts more with brand_color. */
export interface MerchantBrandingView {
  display_name: string | null;
  brand_color: string | null;
  button_text_color: string | null;
  /** The merchant's https URL, or this vault's /sessions/{id}/logo for an uploaded image. */
  logo_url: string | null;
}

/** The shop's look for a session: its display name, else the merchant's name the payment carried. */
export function toMerchantBrandingView(branding: CheckoutBranding, session: Pick<CheckoutSessionRecord, 'id' | 'merchant_name'>): MerchantBrandingView {
  const sessionId = session.id;
  return {
    display_name: branding.display_name ?? session.merchant_name ?? null,
    brand_color: branding.brand_color,
    button_text_color: branding.brand_color ? buttonTextColorFor(branding.brand_color) : null,
    logo_url: logoAddressFor(branding.logo, sessionId),
  };
}

export function toCheckoutStatusView({ session, state, branding }: CheckoutSessionState & { branding?: CheckoutBranding }): CheckoutStatusView {
  return {
    session_id: session.id,
    state,
    livemode: session.mode === 'live',
    attempts: session.attempt ?? (session.token_id ? 1 : 0),
    last_failed_attempt: session.last_failed_attempt ? { ...session.last_failed_attempt } : null,
    amount: session.amount,
    currency: session.currency,
    currency_exponent: minorUnitExponent(session.currency) ?? 2,
    payment_id: session.payment_id,
    payment_status: session.payment_status,
    failure_reason: session.failure_reason,
    masked_account_number: session.masked_account_number,
    scheme: session.scheme,
    return_url: session.return_url,
    allowed_origins: framingOriginsOf(session),
    expires_at: session.expires_at,
    description: session.description ?? null,
    locale: session.locale ?? null,
    authentication: session.authentication && session.payment_status === 'processing' ? { state: session.authentication.state } : null,
    ...(branding ? { merchant: toMerchantBrandingView(branding, session) } : {}),
    ...(session.stored_card ? { stored_card: storedCardView(session.stored_card) } : {}),
  };
}

function storedCardView({ token_id: _token, ...shown }: NonNullable<CheckoutSessionState['session']['stored_card']>) {
  return shown;
}

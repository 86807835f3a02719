import { z } from 'zod';
import type { Mode } from '@vaultline/core';
import { notificationSecret } from '../webhook-secret';

/** A webhook endpoint's signing secret: `whsec_` and at least 32 characters of random key. */
export const STRIPE_WEBHOOK_SECRET_MIN_LENGTH = 38;

/**
 * A Stripe account's credentials, as a merchant gives them (validated at POST/PATCH /processor-accounts).
 * The secret key decides the mode at Stripe (one host serves both): sk_test_/rk_test_ for test, sk_live_/
 * rk_live_ for live. The account must have Stripe's raw card data access (the card goes inline in
 * `payment_method_data[card]`), which Stripe grants on request.
 */
export const stripeCredentialsSchema = z
  .object({
    secret_key: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…)')
      .max(512),
    /** The webhook endpoint's signing secret (Stripe-Signature). */
    webhook_secret: notificationSecret(
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9]+$/, "must be the webhook endpoint's signing secret (whsec_…)")
        .max(512),
      STRIPE_WEBHOOK_SECRET_MIN_LENGTH,
      'whsec_ and the 32 or more characters of the signing secret the Dashboard shows',
    ),
  })
  .strict();

export type StripeCredentials = z.infer<typeof stripeCredentialsSchema>;

export const STRIPE_BASE_URL = 'https://api.stripe.com';

/** The mode a key serves at Stripe. */
function stripeKeyMode(secretKey: string): Mode {
  return /^(sk|rk)_live_/.test(secretKey) ? 'live' : 'test';
}

/**
 * Where requests go: the account's `settings.base_url` when set (accepted only when its payments URL is an
 * allowed forward destination), else Stripe's API. A key of the other mode than the payment's is refused
 * before anything is sent: the host cannot tell the modes apart, the key does.
 */
export function stripeBaseUrl(credentials: StripeCredentials, mode: Mode, baseUrl: string | null): string {
  if (stripeKeyMode(credentials.secret_key) !== mode) throw new Error(`A ${mode}-mode payment cannot use a Stripe key of the other mode`);
  return baseUrl ? baseUrl.replace(/\/+$/, '') : STRIPE_BASE_URL;
}

import { z } from 'zod';
import type { Mode } from '@vaultline/core';
import { notificationSecret } from '../webhook-secret';

/**
 * The webhook signature key (HMAC-SHA256, Cko-Signature): Checkout.com publishes no minimum for a key set by
 * the merchant, so the floor is ours, 32 characters, what a 256-bit key needs as text.
 */
export const CHECKOUT_WEBHOOK_SECRET_MIN_LENGTH = 32;

/** A Checkout.com account's credentials, as a merchant gives them (validated at POST/PATCH /processor-accounts). */
export const checkoutCredentialsSchema = z
  .object({
    secret_key: z
      .string()
      .regex(/^sk_[A-Za-z0-9_-]+$/, 'must be a Checkout.com secret key (sk_…)')
      .max(512),
    processing_channel_id: z
      .string()
      .regex(/^pc_[a-z0-9]+$/, 'must be a processing channel id (pc_…)')
      .max(64),
    /** The key webhooks are signed with (Cko-Signature). */
    webhook_secret: notificationSecret(z.string().max(512), CHECKOUT_WEBHOOK_SECRET_MIN_LENGTH, 'an HMAC-SHA256 signing key of 256 bits or more'),
  })
  .strict();

export type CheckoutCredentials = z.infer<typeof checkoutCredentialsSchema>;

const CHECKOUT_SANDBOX_BASE_URL = 'https://api.sandbox.checkout.com';
const CHECKOUT_LIVE_BASE_URL = 'https://api.checkout.com';

/** The account's `settings.base_url` when set (accepted only when its payments URL is an allowed forward destination), else by mode. */
export function checkoutBaseUrl(mode: Mode, baseUrl: string | null): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  return mode === 'test' ? CHECKOUT_SANDBOX_BASE_URL : CHECKOUT_LIVE_BASE_URL;
}

import { z } from 'zod';
import type { Mode } from '@vaultline/core';

/** A Checkout.com account's credentials, as a merchant gives them (validated at POST/PATCH /processor-accounts). */
export const checkoutCredentialsSchema = z
  .object({
    secret_key: z.string().regex(/^sk_[A-Za-z0-9_-]+$/, 'must be a Checkout.com secret key (sk_…)').max(512),
    processing_channel_id: z.string().regex(/^pc_[a-z0-9]+$/, 'must be a processing channel id (pc_…)').max(64),
    /** The key webhooks are signed with (Cko-Signature). */
    webhook_secret: z.string().min(1).max(512),
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

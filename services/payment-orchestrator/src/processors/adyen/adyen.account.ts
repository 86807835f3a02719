import { z } from 'zod';
import type { Mode } from '@vaultline/core';

/** An Adyen account's credentials, as a merchant gives them (validated at POST/PATCH /processor-accounts). */
export const adyenCredentialsSchema = z
  .object({
    api_key: z.string().min(1).max(512),
    merchant_account: z.string().min(1).max(255),
    /** Notifications' HMAC key, hex as the Customer Area shows it. */
    hmac_key: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2})+$/, 'must be the hex HMAC key from the Customer Area')
      .max(256),
    /** Live only: the merchant-specific prefix of the live Checkout endpoint. */
    live_url_prefix: z
      .string()
      .regex(/^[a-z0-9-]+$/i, 'must be the prefix of the live endpoint (letters, digits, hyphens)')
      .max(128)
      .optional(),
  })
  .strict();

export type AdyenCredentials = z.infer<typeof adyenCredentialsSchema>;

export const ADYEN_TEST_BASE_URL = 'https://checkout-test.adyen.com';

/**
 * The host payments go to: the account's `settings.base_url` when set (accepted only when its payments
 * URL is an allowed forward destination), else Adyen's test host or the account's live host.
 */
export function adyenBaseUrl(credentials: AdyenCredentials, mode: Mode, baseUrl: string | null): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  if (mode === 'test') return ADYEN_TEST_BASE_URL;
  if (!credentials.live_url_prefix) throw new Error('An Adyen account serving live payments needs credentials.live_url_prefix');
  return `https://${credentials.live_url_prefix}-checkout-live.adyenpayments.com/checkout`;
}

import type { z } from 'zod';

/** The problem code of a notification secret shorter than its processor's minimum. */
export const WEBHOOK_SECRET_TOO_SHORT = 'webhook_secret_too_short';

/**
 * A processor's notification secret (Adyen's HMAC key, a webhook signing secret) no shorter than `min`
 * characters: a short one lets anyone who can post to the public notification route forge notifications
 * by guessing it offline from one signed sample. The refusal carries WEBHOOK_SECRET_TOO_SHORT, which
 * account-policy.ts turns into the problem's code; the message names the rule, never the value.
 */
export function notificationSecret<T extends z.ZodString>(schema: T, min: number, what: string): T {
  return schema.refine((value) => value.length >= min, {
    message: `must be at least ${min} characters (${what})`,
    params: { code: WEBHOOK_SECRET_TOO_SHORT },
  }) as T;
}

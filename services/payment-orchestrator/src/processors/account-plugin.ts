import { z } from 'zod';

/** The account's settings a plugin reads when opened (the ones its `account.settings` takes). */
const accountSettings = z.object({ multiple_partial_captures: z.boolean().optional() }).default({});

/** The options a processor account is opened with: its credentials, its base URL override, the payment's key mode, its settings. */
export function accountOptionsSchema<C extends z.ZodType>(credentials: C) {
  return z.object({ credentials, base_url: z.string().url().nullable().default(null), mode: z.enum(['test', 'live']), settings: accountSettings });
}

/**
 * What Adyen and Checkout.com do as plugins: authorize and capture (partial too), merchant-initiated
 * unscheduled payments as such, test and live. No 3RI: Adyen's Checkout API v69 documents no 3DS
 * Requestor Initiated request (its threeDS2RequestData.deviceChannel is app or browser only), and
 * Checkout.com's needs an initial payment that ran 3-D Secure, which ours never do (service README). So it
 * is declared missing and a flow needing it is refused; risk is not theirs.
 */
export const REAL_PROCESSOR_CAPABILITIES = {
  authorize: true,
  capture: true,
  partialCapture: true,
  // Checkout.com: capture_type NonFinal (Visa, Mastercard, American Express); Adyen only with multiple partial captures on the account (its plugin says).
  multipleCaptures: true,
  authentication3ri: false,
  // 3-D Secure: declared by each plugin once its mapper runs it (until then an authenticate-the-shopper answer fails the payment).
  authentication3ds: false,
  risk: false,
  explicitUnscheduledMit: true,
  modes: ['test', 'live'],
} as const;

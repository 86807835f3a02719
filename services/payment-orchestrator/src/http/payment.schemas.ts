import { z } from 'zod';
import {
  allowedOriginOf,
  checkoutLocaleOf,
  isAllowedReturnUrl,
  isCurrencyCode,
  MAX_ALLOWED_ORIGINS,
  MAX_AMOUNT,
  MAX_CHECKOUT_DESCRIPTION_LENGTH,
} from '@vaultline/contracts';
import { isCalendarDate } from '../domain/credentials/credential';

/** Minor units of the currency, a positive integer of at most twelve digits (MAX_AMOUNT; above it 422 amount_too_large). */
export const amount = z
  .number()
  .int()
  .positive()
  .refine((value) => value <= MAX_AMOUNT, {
    message: `amount must be at most ${MAX_AMOUNT} (twelve digits, in minor units of the currency).`,
    params: { code: 'amount_too_large' },
  });
export const currencyCode = z.string().refine(isCurrencyCode, { message: 'currency_code must be an ISO 4217 currency code in upper case, such as EUR.' });
export const reference = z.string().min(1).max(255);
export const metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 20, { message: 'metadata holds at most 20 keys.' });
const source = z.strictObject({ type: z.literal('vaultline') });
export const returnUrl = z
  .string()
  .max(2048)
  .refine(isAllowedReturnUrl, { message: 'return_url must be an https URL (http only for localhost, 127.0.0.1 or [::1]).' });
const allowedOrigin = z
  .string()
  .max(2048)
  .refine((value) => allowedOriginOf(value) !== null, {
    message: 'Each allowed origin must be an https origin such as https://shop.example (http only for localhost, 127.0.0.1 or [::1]; no path, no wildcard).',
  })
  .transform((value) => allowedOriginOf(value)!);
export const allowedOrigins = z
  .array(allowedOrigin)
  .max(MAX_ALLOWED_ORIGINS)
  .transform((origins) => [...new Set(origins)]);
/** The order line the hosted page shows under the amount. */
export const description = z.string().trim().min(1).max(MAX_CHECKOUT_DESCRIPTION_LENGTH);
/** The hosted page's language; without it the consumer's browser chooses. */
export const locale = z
  .string()
  .max(10)
  .refine((value) => checkoutLocaleOf(value) !== null, { message: 'locale must be one of en, de, fr, es, nl, it, with an optional region such as de-CH.' })
  .transform((value) => checkoutLocaleOf(value)!);

const initialFields = {
  amount,
  currency_code: currencyCode,
  reference: reference.optional(),
  source,
  return_url: returnUrl.optional(),
  allowed_origins: allowedOrigins.optional(),
  metadata: metadata.optional(),
  description: description.optional(),
  locale: locale.optional(),
};

export const oneOffBody = z.strictObject(initialFields);
export const unscheduledBody = z.strictObject(initialFields);
export const recurringBody = z.strictObject({
  ...initialFields,
  recurring_frequency: z.number().int().min(1).max(36_500),
  recurring_expiry: z.string().refine(isCalendarDate, { message: 'recurring_expiry must be a calendar date written YYYYMMDD.' }),
});

export const authenticationPreference = z.enum(['NO_3RI', 'TRY_3RI', 'REQUIRE_3RI']).default('NO_3RI');

export const subsequentBody = z.strictObject({
  amount,
  currency_code: currencyCode,
  reference: reference.optional(),
  authentication_preference: authenticationPreference,
  metadata: metadata.optional(),
});

export const captureBody = z
  .strictObject({ reference: reference.optional(), amount: amount.optional(), currency_code: currencyCode.optional(), final_capture: z.boolean().optional() })
  .superRefine((body, ctx) => {
    if (body.amount !== undefined && body.currency_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['currency_code'], message: 'currency_code is required with amount (partial capture).' });
    }
  });

export const cancelBody = z.strictObject({ reference: reference.optional() });

export const refundBody = z.strictObject({
  amount: amount.optional(),
  currency_code: currencyCode.optional(),
  reference: reference.optional(),
  reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']).optional(),
});

/** An ISO 8601 date-time with its offset (Z or ±hh:mm), compared as the UTC instant it names. */
const isoInstant = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with an offset, such as 2026-11-26T07:30:00Z.' })
  .transform((value) => new Date(value).toISOString());

const PAYMENT_STATUSES = ['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled'] as const;
/** Either interface's words: the newer one's use cases and the earlier one's. */
const SEARCHABLE_USE_CASES = [
  'ONE_OFF',
  'RECURRING',
  'UNSCHEDULED',
  'SUBSEQUENT_RECURRING',
  'SUBSEQUENT_UNSCHEDULED',
  'guest_payment',
  'cof_payment',
  'first_payment',
  'recurring_payment',
  'unscheduled_payment',
] as const;

/** GET /payments filters (the page's own parameters are read apart); every one optional, all combinable. */
export const paymentSearchQuery = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  reference: reference.optional(),
  customer_id: z.string().min(1).max(255).optional(),
  use_case: z.enum(SEARCHABLE_USE_CASES).optional(),
  created_gte: isoInstant.optional(),
  created_lte: isoInstant.optional(),
});

/** GET /refunds filters. */
export const refundSearchQuery = z.object({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  payment_id: z.string().uuid({ message: 'must be a payment id.' }).optional(),
});

/** The query's members a filter schema names (a repeated parameter arrives as an array and is refused by the schema). */
export function filtersOf(query: unknown, names: readonly string[]): Record<string, unknown> {
  const source = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  return Object.fromEntries(names.filter((name) => source[name] !== undefined).map((name) => [name, source[name]]));
}

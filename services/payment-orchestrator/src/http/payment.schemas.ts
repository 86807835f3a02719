import { z } from 'zod';
import { isCurrencyCode } from '../domain/currency';
import { isCalendarDate } from '../domain/credentials/credential';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http for a loopback host only (local development); never javascript:, data:, relative… */
export function isAllowedReturnUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

export const amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const currencyCode = z.string().refine(isCurrencyCode, { message: 'currency_code must be an ISO 4217 currency code in upper case, such as EUR.' });
const reference = z.string().min(1).max(255);
export const metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 20, { message: 'metadata holds at most 20 keys.' });
const source = z.strictObject({ type: z.literal('vaultline') });
const returnUrl = z.string().max(2048).refine(isAllowedReturnUrl, { message: 'return_url must be an https URL (http only for localhost, 127.0.0.1 or [::1]).' });

const initialFields = {
  amount,
  currency_code: currencyCode,
  reference: reference.optional(),
  source,
  return_url: returnUrl.optional(),
  metadata: metadata.optional(),
};

export const oneOffBody = z.strictObject(initialFields);
export const unscheduledBody = z.strictObject(initialFields);
export const recurringBody = z.strictObject({
  ...initialFields,
  recurring_frequency: z.number().int().min(1).max(36_500),
  recurring_expiry: z.string().refine(isCalendarDate, { message: 'recurring_expiry must be a calendar date written YYYYMMDD.' }),
});

export const subsequentBody = z.strictObject({
  amount,
  currency_code: currencyCode,
  reference: reference.optional(),
  authentication_preference: z.enum(['NO_3RI', 'TRY_3RI', 'REQUIRE_3RI']).default('NO_3RI'),
  metadata: metadata.optional(),
});

export const captureBody = z
  .strictObject({ reference: reference.optional(), amount: amount.optional(), currency_code: currencyCode.optional() })
  .superRefine((body, ctx) => {
    if (body.amount !== undefined && body.currency_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['currency_code'], message: 'currency_code is required with amount (partial capture).' });
    }
  });

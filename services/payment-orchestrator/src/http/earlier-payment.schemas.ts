import { z } from 'zod';
import { allowedOrigins, amount, authenticationPreference, currencyCode, description, locale, metadata, reference, returnUrl } from './payment.schemas';

const id = z.string().min(1).max(64);

/** POST /payments (earlier interface). confirm is checked by the rules (422 confirm_required), not here. */
export const earlierPaymentBody = z.strictObject({
  amount,
  currency_code: currencyCode,
  confirm: z.boolean().optional(),
  payment_method_types: z.array(z.literal('card')).min(1).max(1).optional(),
  store_payment_method_for: z
    .strictObject({
      use_case: z.enum(['cof_payments', 'recurring_payments', 'unscheduled_payments']),
      mandate_reference: reference.optional(),
    })
    .optional(),
  customer_id: id.optional(),
  payment_method_id: id.optional(),
  reference: reference.optional(),
  return_url: returnUrl.optional(),
  allowed_origins: allowedOrigins.optional(),
  metadata: metadata.optional(),
  description: description.optional(),
  locale: locale.optional(),
  authentication_preference: authenticationPreference,
});

export const customerBody = z.strictObject({
  name: z.string().trim().min(1).max(255),
  email: z.string().max(320).email().optional(),
  metadata: metadata.optional(),
});

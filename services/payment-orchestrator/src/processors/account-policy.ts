import { z } from 'zod';
import type { ProcessorAccountPolicy } from '../domain/ports';
import { maskedHint, type AccountProcessor } from '../domain/processor-accounts/processor-account';
import { adyenCredentialsSchema } from './adyen/adyen.account';
import { ADYEN_API_VERSION } from './adyen/adyen.mapper';
import { checkoutCredentialsSchema } from './checkout/checkout.account';

/** Each processor's credentials, the secret its hint shows, and where its payments go under a base URL. */
const ACCOUNT_SHAPES: Record<AccountProcessor, { credentials: z.ZodType<Record<string, unknown>>; mainSecret: string | null; paymentsPath: string }> = {
  adyen: { credentials: adyenCredentialsSchema, mainSecret: 'api_key', paymentsPath: `/${ADYEN_API_VERSION}/payments` },
  checkout: { credentials: checkoutCredentialsSchema, mainSecret: 'secret_key', paymentsPath: '/payments' },
  // Built in and without a network: nothing to authenticate with.
  simulator: { credentials: z.object({}).strict(), mainSecret: null, paymentsPath: '/payments' },
};

export const accountPolicy: ProcessorAccountPolicy = {
  validateCredentials(processor, credentials) {
    const shape = ACCOUNT_SHAPES[processor];
    const parsed = shape.credentials.safeParse(credentials);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
      const field = key ? `credentials.${key}` : 'credentials';
      // The message names the rule, never the value given (it may be a secret).
      const detail = issue.code === 'unrecognized_keys' ? `${field} is not a ${processor} credential.` : `${field}: ${issue.message}`;
      return { ok: false, field, detail };
    }
    const secret = shape.mainSecret ? parsed.data[shape.mainSecret] : undefined;
    return { ok: true, hint: maskedHint(typeof secret === 'string' ? secret : undefined) };
  },
  paymentsUrl(processor, baseUrl) {
    return `${baseUrl.replace(/\/+$/, '')}${ACCOUNT_SHAPES[processor].paymentsPath}`;
  },
};

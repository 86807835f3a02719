import { z } from 'zod';
import type { ImportProviderPlugin } from '../../domain/import-provider';
import { ProviderASource } from './provider-a.source';

const credentialsSchema = z.object({ api_key: z.string().min(1).max(512) }).strict();

/** provider_a: a platform shaped after Stripe's public API (customers, payment methods, forwarding). */
export const providerA: ImportProviderPlugin<z.infer<typeof credentialsSchema>> = {
  id: 'provider_a',
  credentialsSchema,
  open: (credentials, context) => new ProviderASource(credentials.api_key, context),
};

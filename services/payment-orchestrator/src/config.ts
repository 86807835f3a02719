import { z } from 'zod';
import { loadConfig } from '@vaultline/config';

export const paymentOrchestratorConfigSchema = z.object({});

export type PaymentOrchestratorConfig = z.infer<typeof paymentOrchestratorConfigSchema>;

export function loadPaymentOrchestratorConfig(env: NodeJS.ProcessEnv): PaymentOrchestratorConfig {
  return loadConfig(paymentOrchestratorConfigSchema, env);
}

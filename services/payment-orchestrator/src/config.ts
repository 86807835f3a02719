import { z } from 'zod';
import { envDurationMs, loadConfig } from '@vaultline/config';
import type { ProcessorOptions } from './processors/registry';

export const paymentOrchestratorConfigSchema = z
  .object({
    /** How long a consumer has to enter the card on the hosted page; then the payment fails with session_expired. */
    PAYMENT_SESSION_LIFETIME_MS: envDurationMs().default(30 * 60_000),
    /** How often the worker looks for due payments (expired sessions, captures to settle, steps left by a crash). */
    PAYMENT_WORKER_POLL_MS: envDurationMs().default(250),
    /** How long a merchant's current flow matrix is kept in memory (a PUT through this instance is seen at once); 0: off. */
    PAYMENT_FLOW_MATRIX_CACHE_MS: envDurationMs().default(1_000),
    /** The simulator keeps a capture pending this long, so the capturing state is observable. */
    PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: envDurationMs().default(200),
  })
  .transform((env) => ({
    sessionLifetimeMs: env.PAYMENT_SESSION_LIFETIME_MS,
    workerPollMs: env.PAYMENT_WORKER_POLL_MS,
    flowMatrixCacheMs: env.PAYMENT_FLOW_MATRIX_CACHE_MS,
    processors: { simulator: { capture_delay_ms: env.PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS } } satisfies ProcessorOptions,
  }));

export type PaymentOrchestratorConfig = z.infer<typeof paymentOrchestratorConfigSchema>;

export function loadPaymentOrchestratorConfig(env: NodeJS.ProcessEnv): PaymentOrchestratorConfig {
  return loadConfig(paymentOrchestratorConfigSchema, env);
}

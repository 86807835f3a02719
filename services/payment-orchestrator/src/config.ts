import { z } from 'zod';
import { envBoolean, envDurationMs, envInteger, generatedKeyFile, generatedKeysEnv, loadConfig, loadKey } from '@vaultline/config';
import type { ProcessorOptions } from './processors/registry';
import type { NotificationLimits } from './domain/processor-notifications/receive-processor-notification';
import type { RetryLimits } from './domain/declines/retry-limits';

const PAYMENT_ORCHESTRATOR_KEY_FILE = 'payment-orchestrator-secret.key';

/** Items one processor notification body may carry: Adyen sends a handful per body; more → 413, nothing recorded. */
const MAX_NOTIFICATION_ITEMS = 100;

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
    /** The simulator keeps a refund pending this long before it settles. */
    PROCESSOR_SIMULATOR_REFUND_DELAY_MS: envDurationMs().default(200),
    /**
     * How long a manual-capture authorization is held before it is voided and its payment canceled
     * (authorization_expired). Card schemes hold most authorizations about 7 days.
     */
    AUTHORIZATION_VALIDITY_SECONDS: envInteger({ min: 1, max: 366 * 86_400 }).default(604_800),
    /** How often the after-sale worker looks for expired authorizations, unconfirmed voids and refunds to send or settle. */
    AFTER_SALE_WORKER_POLL_MS: envDurationMs().default(1_000),
    /**
     * Seals processor-account credentials at rest (base64, 32 bytes); the production profile must set it.
     * Unset (embedded and local profiles): generated once into KEYS_DIR/payment-orchestrator-secret.key
     * (mode 0600) and read back on every later start; losing that file means re-entering the credentials.
     */
    PAYMENT_ORCHESTRATOR_SECRET_KEY: z.string().min(1).optional(),
    /** Let processor calls without card data (captures) reach loopback and private addresses: stand-ins in tests and demos. Never in production. */
    PROCESSOR_ALLOW_PRIVATE_URLS: envBoolean().default(false),
    /** How long a payment request's Idempotency-Key answers repeats here, as at the gateway (the same variable); expired records are pruned. */
    IDEMPOTENCY_KEY_TTL: envDurationMs()
      .refine((ms) => ms > 0, { message: 'must be longer than 0' })
      .default(24 * 60 * 60 * 1000),
    /**
     * The public notification routes (/processor-notifications/…): requests per second and burst per
     * sender address (the gateway's X-Forwarded-For under TRUST_PROXY) and per processor account. Over
     * either: 429 rate_limited with Retry-After; Adyen and Checkout.com deliver again later. A processor
     * sends from a few addresses for every account of the installation, so the address allows more than
     * an account; a busy merchant (a couple of notifications per payment) raises both.
     */
    PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ADDRESS: envInteger({ min: 1, max: 100_000 }).default(200),
    PROCESSOR_NOTIFICATIONS_BURST_PER_ADDRESS: envInteger({ min: 1, max: 100_000 }).default(2_000),
    PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ACCOUNT: envInteger({ min: 1, max: 100_000 }).default(100),
    PROCESSOR_NOTIFICATIONS_BURST_PER_ACCOUNT: envInteger({ min: 1, max: 100_000 }).default(1_000),
    PROCESSOR_ACCOUNTS_MAX_PER_MERCHANT: envInteger({ min: 1, max: 1_000 }).default(50),
    /**
     * The forwarder's operator list, read here too: a processor account's settings.base_url is accepted
     * only when its payments URL is one of the built-in processor destinations or listed here.
     */
    FORWARD_EXTRA_DESTINATIONS: z.string().default(''),
    /** success_rate routing: how far back authorization outcomes count (counted in buckets of a twelfth of it, at least a minute). */
    ROUTING_STATS_WINDOW: envDurationMs()
      .refine((ms) => ms >= 60_000, { message: 'must be at least 1 minute' })
      .default(60 * 60_000),
    /** success_rate routing: within the window an outcome's weight halves every this long, so a change shows within minutes. */
    ROUTING_STATS_HALF_LIFE: envDurationMs()
      .refine((ms) => ms >= 1_000, { message: 'must be at least 1 second' })
      .default(10 * 60_000),
    /** success_rate routing: the share of decisions that try another processor than the best, so its rate stays current (0 to 0.5). */
    ROUTING_EXPLORATION_SHARE: z.coerce.number().min(0).max(0.5).default(0.05),
    /** success_rate routing: the recent outcomes (weighed by age, as rates are) each processor needs in a segment before it is compared there; fewer, and the segment widens. */
    ROUTING_MIN_ATTEMPTS: envInteger({ min: 1, max: 100_000 }).default(100),
    /** How long a merchant's routing counts are kept in memory (this instance's own outcomes are seen at once); 0: off. */
    ROUTING_STATS_CACHE_MS: envDurationMs().default(5_000),
    /**
     * The card schemes' limits on retrying a declined card with merchant-initiated payments (422
     * retry_limit_reached past them): Visa 15 reattempts in 30 days after category 2 and 3 declines (none after
     * category 1); Mastercard 10 in 24 hours and 35 in 30 days (none after MAC 03 or 21); schemes that publish
     * none here: Visa's figure.
     */
    MIT_RETRIES_VISA_PER_30_DAYS: envInteger({ min: 0, max: 1_000 }).default(15),
    MIT_RETRIES_MASTERCARD_PER_24_HOURS: envInteger({ min: 0, max: 1_000 }).default(10),
    MIT_RETRIES_MASTERCARD_PER_30_DAYS: envInteger({ min: 0, max: 1_000 }).default(35),
    MIT_RETRIES_OTHER_PER_30_DAYS: envInteger({ min: 0, max: 1_000 }).default(15),
    ...generatedKeysEnv,
  })
  .transform((env) => ({
    sessionLifetimeMs: env.PAYMENT_SESSION_LIFETIME_MS,
    workerPollMs: env.PAYMENT_WORKER_POLL_MS,
    flowMatrixCacheMs: env.PAYMENT_FLOW_MATRIX_CACHE_MS,
    processors: {
      simulator: { capture_delay_ms: env.PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS, refund_delay_ms: env.PROCESSOR_SIMULATOR_REFUND_DELAY_MS },
    } satisfies ProcessorOptions,
    authorizationValidityMs: env.AUTHORIZATION_VALIDITY_SECONDS * 1_000,
    afterSalePollMs: env.AFTER_SALE_WORKER_POLL_MS,
    maxProcessorAccountsPerMerchant: env.PROCESSOR_ACCOUNTS_MAX_PER_MERCHANT,
    requestRetentionMs: env.IDEMPOTENCY_KEY_TTL,
    notificationLimits: {
      maxItems: MAX_NOTIFICATION_ITEMS,
      perAddress: { ratePerSecond: env.PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ADDRESS, burst: env.PROCESSOR_NOTIFICATIONS_BURST_PER_ADDRESS },
      perAccount: { ratePerSecond: env.PROCESSOR_NOTIFICATIONS_PER_SECOND_PER_ACCOUNT, burst: env.PROCESSOR_NOTIFICATIONS_BURST_PER_ACCOUNT },
    } satisfies NotificationLimits,
    processorAllowPrivateUrls: env.PROCESSOR_ALLOW_PRIVATE_URLS,
    extraForwardDestinations: env.FORWARD_EXTRA_DESTINATIONS.split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
    routing: {
      windowMs: env.ROUTING_STATS_WINDOW,
      halfLifeMs: env.ROUTING_STATS_HALF_LIFE,
      explorationShare: env.ROUTING_EXPLORATION_SHARE,
      minAttempts: env.ROUTING_MIN_ATTEMPTS,
      statsCacheMs: env.ROUTING_STATS_CACHE_MS,
    },
    retryLimits: {
      visaPer30Days: env.MIT_RETRIES_VISA_PER_30_DAYS,
      mastercardPer24Hours: env.MIT_RETRIES_MASTERCARD_PER_24_HOURS,
      mastercardPer30Days: env.MIT_RETRIES_MASTERCARD_PER_30_DAYS,
      otherPer30Days: env.MIT_RETRIES_OTHER_PER_30_DAYS,
    } satisfies RetryLimits,
    secretKey: loadKey({
      variable: 'PAYMENT_ORCHESTRATOR_SECRET_KEY',
      value: env.PAYMENT_ORCHESTRATOR_SECRET_KEY,
      file: generatedKeyFile(env, PAYMENT_ORCHESTRATOR_KEY_FILE).path,
    }),
  }));

export type PaymentOrchestratorConfig = z.infer<typeof paymentOrchestratorConfigSchema>;

export function loadPaymentOrchestratorConfig(env: NodeJS.ProcessEnv): PaymentOrchestratorConfig {
  return loadConfig(paymentOrchestratorConfigSchema, env);
}

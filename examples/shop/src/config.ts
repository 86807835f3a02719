import { z } from 'zod';

/**
 * The shop's configuration, from the environment (the only file reading it).
 *
 * - VAULTLINE_API_KEY: the merchant's API key (sk_test_… to take test payments).
 * - VAULTLINE_BASE_URL: where the Vaultline API is; the consumer's browser loads checkout.js and the hosted
 *   page from there too (default http://localhost:8080, the embedded service).
 * - PORT: where the shop listens (default 4242; 0 picks a free port).
 * - SHOP_URL: the shop's own address as browsers and Vaultline's webhooks reach it (default
 *   http://localhost:{PORT}). It is the checkout's allowed origin, the return address of the hosted page,
 *   and the base of the webhook endpoint registered on start ({SHOP_URL}/webhooks/vaultline).
 * - VAULTLINE_WEBHOOK_SECRET: the whsec_… secret `vaultline listen --forward-to {SHOP_URL}/webhooks/vaultline`
 *   printed. Set, the shop registers no endpoint and verifies the webhooks the CLI forwards with it.
 */
const configSchema = z.object({
  VAULTLINE_API_KEY: z.string().regex(/^sk_(test|live)_/, { message: 'must be a Vaultline API key (sk_test_… or sk_live_…)' }),
  VAULTLINE_BASE_URL: z.url().default('http://localhost:8080'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4242),
  SHOP_URL: z.url().optional(),
  VAULTLINE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { message: 'must be the whsec_… secret vaultline listen printed' })
    .optional(),
});

export interface ShopConfig {
  apiKey: string;
  vaultlineUrl: string;
  port: number;
  /** Unset: http://localhost:{the port listened on}. */
  shopUrl: string | undefined;
  /** From `vaultline listen`: no endpoint is registered. */
  webhookSecret: string | undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`The shop's configuration is not valid:\n  ${problems.join('\n  ')}`);
  }
  const { VAULTLINE_API_KEY, VAULTLINE_BASE_URL, PORT, SHOP_URL, VAULTLINE_WEBHOOK_SECRET } = parsed.data;
  return {
    apiKey: VAULTLINE_API_KEY,
    vaultlineUrl: VAULTLINE_BASE_URL.replace(/\/+$/, ''),
    port: PORT,
    shopUrl: SHOP_URL?.replace(/\/+$/, ''),
    webhookSecret: VAULTLINE_WEBHOOK_SECRET,
  };
}

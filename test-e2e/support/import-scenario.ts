import { waitFor } from '@vaultline/core';
import { startProviderASimulator, type ProviderASimulator } from '../../services/importer/dev/provider-a-simulator';
import { paymentMethodId } from '../../services/importer/dev/provider-a-catalogue';
import type { MerchantApi, RunningSystem } from './merchant-api';

/**
 * The merchant's side of an automatic import from provider_a: the platform account is the
 * importer's dev simulator on loopback (reachable through PROVIDER_A_BASE_URL and
 * IMPORTER_ALLOW_PRIVATE_PROVIDER=true); the platform forwards every card to the gateway's /cde-import.
 */
export const PLATFORM_API_KEY = 'sk_test_platform_account_e2e_0001';

export interface ImportJobView {
  id: string;
  object: 'token_import';
  livemode: boolean;
  provider: string;
  state: 'preparing' | 'running' | 'finished' | 'failed';
  counts: { total: number; imported: number; updated: number; failed: number; imported_without_security_code: number };
  failure_reason: string | null;
  failure_detail: string | null;
  failures: Array<{ reason: string; count: number }>;
  finished_at: string | null;
}

export interface ImportPlatform {
  simulator: ProviderASimulator;
  paymentMethods: string[];
}

export async function startImportPlatform(customers: number, cardsPerCustomer: number): Promise<ImportPlatform> {
  const simulator = await startProviderASimulator({ apiKey: PLATFORM_API_KEY, customers, cardsPerCustomer, allowHttpLoopbackDestinations: true });
  const paymentMethods: string[] = [];
  for (let customer = 0; customer < customers; customer++) {
    for (let card = 0; card < cardsPerCustomer; card++) paymentMethods.push(paymentMethodId(customer, card));
  }
  return { simulator, paymentMethods };
}

/**
 * The platform's onboarding: it enables forwarding to the system's /cde-import for the account. The
 * embedded profile's public base URL is http://localhost:<gateway port> when PUBLIC_BASE_URL is not set.
 */
export function enableForwardingTo(platform: ImportPlatform, running: RunningSystem): void {
  platform.simulator.enableForwardingTo(`http://localhost:${new URL(running.system.baseUrl).port}/cde-import`);
}

/** Settings of the importer and the notifier for a loopback platform and a loopback webhook receiver. */
export function importEnv(platform: ImportPlatform): Record<string, string> {
  return {
    PROVIDER_A_BASE_URL: platform.simulator.baseUrl,
    IMPORTER_ALLOW_PRIVATE_PROVIDER: 'true',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  };
}

export async function registerWebhookEndpoint(merchant: MerchantApi, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const answer = await merchant.call('POST', '/webhook-endpoints', { json: { url, events, description: 'e2e receiver' } });
  if (answer.status !== 201) throw new Error(`POST /webhook-endpoints answered ${answer.status}: ${answer.text}`);
  return answer.json<{ id: string; secret: string }>();
}

export async function startImport(merchant: MerchantApi, platformApiKey = PLATFORM_API_KEY): Promise<ImportJobView> {
  const answer = await merchant.call('POST', '/tokens/imports', { json: { provider: 'provider_a', provider_a: { api_key: platformApiKey } } });
  if (answer.status !== 201) throw new Error(`POST /tokens/imports answered ${answer.status}: ${answer.text}`);
  return answer.json<ImportJobView>();
}

/** Polls GET /tokens/imports/{id} until the job has stopped (finished or failed). */
export async function importWhenStopped(merchant: MerchantApi, id: string, timeoutMs = 15_000): Promise<ImportJobView> {
  return waitFor(
    async () => {
      const answer = await merchant.call('GET', `/tokens/imports/${id}`);
      if (answer.status !== 200) throw new Error(`GET /tokens/imports/${id} answered ${answer.status}: ${answer.text}`);
      const job = answer.json<ImportJobView>();
      return job.state === 'finished' || job.state === 'failed' ? job : null;
    },
    timeoutMs,
    100,
  );
}

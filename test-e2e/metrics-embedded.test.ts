import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';
import { MERCHANT_API_KEY, MerchantApi } from './support/merchant-api';
import { registerWebhookEndpoint } from './support/import-scenario';
import { endpointBucket } from '../libs/metrics/src/bounded-labels';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/** The embedded profile's one /metrics: every service's series (the importer's thread included), never on the merchant port. */
describe('metrics of the embedded profile', () => {
  let dataDir: string;
  let system: EmbeddedSystem | undefined;
  let receiver: WebhookReceiver | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-metrics-'));
  });
  afterEach(async () => {
    await system?.stop();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when METRICS_PORT is not set, then no /metrics listener is opened', async () => {
    system = await startEmbedded({ dataDir, port: 0, env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, LOG_LEVEL: 'silent', EMBEDDED_SERVICE_THREADS: 'none' } });
    expect(system.metricsUrl).toBeUndefined();
  });

  it('when a token is created and its webhook delivered, then /metrics on METRICS_PORT shows RED by route pattern, bus, outbox and webhook series of each service, and the merchant port has no /metrics', async () => {
    receiver = await startWebhookReceiver();
    system = await startEmbedded({
      dataDir,
      port: 0,
      env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', METRICS_PORT: '0' },
    });
    const merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
    const endpoint = await registerWebhookEndpoint(merchant, receiver.url, ['token.created']);
    const token = await merchant.createToken({ number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' });
    expect((await merchant.call('GET', `/tokens/${token.id}`)).status).toBe(200);
    await waitFor(() => receiver!.received.length === 1, 15_000, 20);

    const url = system.metricsUrl as string;
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const scrape = async () => (await fetch(url)).text();
    await waitFor(
      async () =>
        (await scrape()).includes(`vaultline_webhook_deliveries_total{service="notifier",endpoint="${endpointBucket(endpoint.id)}",outcome="delivered"} 1`),
      5_000,
      50,
    );
    const text = await scrape();

    expect(text).toContain('vaultline_http_requests_total{service="gateway",method="POST",route="/tokens*",status="201"} 1');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="POST",route="/tokens",status="201"} 1');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="/tokens/:id",status="200"} 1');
    expect(text).not.toContain(token.id);
    expect(text).toMatch(/vaultline_http_request_duration_seconds_bucket\{le="\+Inf",service="vault",method="POST",route="\/tokens"\} 1/);
    expect(text).toMatch(/vaultline_bus_messages_handled_total\{service="notifier",group="notifier\.merchant-events",topic="[^"]+"\} \d+/);
    expect(text).toMatch(/vaultline_bus_consumer_lag\{service="notifier",group="notifier\.merchant-events",topic="[^"]+"\} 0/);
    expect(text).toContain('vaultline_outbox_backlog{service="vault"} 0');
    expect(text).toContain(`vaultline_webhook_backlog`);
    // Merchants' endpoints are counted in buckets, never by id (the label must not grow with them).
    expect(text).not.toMatch(new RegExp(`vaultline_webhook_(deliveries|failures)_total\\{[^}]*endpoint="${endpoint.id}"`));
    expect(text).toMatch(/vaultline_import_jobs\{service="importer",state="running"\} 0/);
    expect(text).toMatch(/vaultline_bus_consumer_lag\{service="importer",/);
    expect(text).toContain('vaultline_process_cpu_seconds_total');
    expect((await fetch(`${system.baseUrl}/metrics`, { headers: { 'X-API-Key': MERCHANT_API_KEY } })).status).toBe(404);
  });
});

/**
 * Run as a real Node process (jest's module registry keeps node:http away from the instrumentation):
 * telemetry first with an in-memory exporter, then the embedded profile; one POST /tokens whose
 * token.created reaches a webhook receiver. Prints one JSON line: the spans recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from '@vaultline/telemetry';
import type { CollectedSpan } from './trace-chain';

const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({ serviceName: 'vaultline-embedded', exporter: 'none', spanProcessors: [new SimpleSpanProcessor(exporter)] });

async function main(): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { startEmbedded } = require('@vaultline/launcher') as typeof import('@vaultline/launcher');
  const { waitFor } = require('@vaultline/core') as typeof import('@vaultline/core');
  const { startWebhookReceiver } = require('./webhook-receiver') as typeof import('./webhook-receiver');
  const { MerchantApi, MERCHANT_API_KEY } = require('./merchant-api') as typeof import('./merchant-api');
  const { registerWebhookEndpoint } = require('./import-scenario') as typeof import('./import-scenario');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-trace-'));
  const receiver = await startWebhookReceiver();
  // Every service on the main thread: a service thread has no tracer of its own here.
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', EMBEDDED_SERVICE_THREADS: 'none' },
  });
  try {
    const merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
    await registerWebhookEndpoint(merchant, receiver.url, ['token.created']);
    exporter.reset();
    await merchant.createToken({ number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' });
    await waitFor(() => receiver.received.length === 1, 15_000, 20);
    await waitFor(() => exporter.getFinishedSpans().some((span) => span.name === 'POST webhook'), 5_000, 20);
  } finally {
    await system.stop();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const spans: CollectedSpan[] = exporter.getFinishedSpans().map((span) => ({
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: SpanKind[span.kind],
    service: String(span.attributes['vaultline.service'] ?? span.resource.attributes['service.name'] ?? ''),
  }));
  process.stdout.write(`${JSON.stringify(spans)}\n`);
  await telemetry.shutdown();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

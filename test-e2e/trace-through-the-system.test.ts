import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@vaultline/core';
import { startLocal } from '@vaultline/launcher';
import { MERCHANT_API_KEY, MerchantApi } from './support/merchant-api';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startWebhookReceiver } from './support/webhook-receiver';
import { ancestry, describeChain, positionsIn, type CollectedSpan } from './support/trace-chain';

/**
 * One trace from the merchant's POST /tokens through the gateway, the vault, the outbox and the bus to
 * the notifier's webhook delivery: every span of the chain in one trace, each one's parent present.
 */
function expectOneUnbrokenTrace(spans: CollectedSpan[], vaultServer: (span: CollectedSpan) => boolean): void {
  const webhook = spans.find((span) => span.name === 'POST webhook' && span.kind === 'CLIENT');
  expect(webhook).toBeDefined();
  const chain = ancestry(spans, webhook as CollectedSpan);
  const steps = positionsIn(chain, [
    (span) => span.kind === 'SERVER' && span.service === 'gateway',
    vaultServer,
    (span) => span.kind === 'PRODUCER' && span.name === 'publish token.created',
    (span) => span.kind === 'CONSUMER' && span.name === 'consume token.created' && span.service === 'notifier',
    (span) => span === webhook,
  ]);
  // Present (no -1) and in this order, from the root: the gateway's server span is the trace's root.
  expect({ steps, chain: describeChain(chain) }).toEqual({ steps: [...steps].sort((a, b) => a - b), chain: describeChain(chain) });
  expect(steps.every((position) => position >= 0)).toBe(true);
  expect(steps[0]).toBe(0);
  expect(new Set(chain.map((span) => span.traceId)).size).toBe(1);
}

describe('one trace from the merchant request to the webhook delivery', () => {
  it("in the embedded profile (in-memory span exporter), then the gateway server span, the vault's span (its routes mounted in the gateway), publish, consume and the webhook client span form one unbroken chain", async () => {
    const fixture = join(__dirname, 'support', 'trace-embedded.fixture.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
      cwd: __dirname,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const spans = JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as CollectedSpan[];
    // In one process every span has one service.name: the vault's span names its service in an attribute. The
    // gateway hands the request to the vault's routes in this process (one HTTP stack): an internal span, no server span.
    const recorded = spans.map((span) => ({ ...span, service: span.service === 'vaultline-embedded' ? serviceOfEmbedded(span, spans) : span.service }));
    expectOneUnbrokenTrace(recorded, (span) => span.kind === 'INTERNAL' && span.service === 'vault' && span.name === 'vault POST /tokens');
  }, 90_000);

  describe('in the local profile (a process per service, spans sent to an OTLP/HTTP JSON receiver)', () => {
    let collector: OtlpReceiver;
    let dataDir: string;
    beforeEach(async () => {
      collector = await startOtlpReceiver();
      dataDir = mkdtempSync(join(tmpdir(), 'vaultline-trace-local-'));
    });
    afterEach(async () => {
      await collector.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('then the spans of four processes assemble into one unbroken chain', async () => {
      const receiver = await startWebhookReceiver();
      const system = await startLocal({
        dataDir,
        port: 0,
        stdio: 'files',
        env: {
          BOOTSTRAP_API_KEY: MERCHANT_API_KEY,
          LOG_LEVEL: 'warn',
          WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        },
      });
      try {
        const merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
        await registerWebhookEndpoint(merchant, receiver.url, ['token.created']);
        await merchant.createToken({ number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' });
        await waitFor(() => receiver.received.length === 1, 20_000, 50);
        await waitFor(() => collector.spans.some((span) => span.name === 'POST webhook'), 20_000, 50);
        const webhook = collector.spans.find((span) => span.name === 'POST webhook') as CollectedSpan;
        // The processes export on their own schedules: wait until the chain is whole (or give up and show it).
        await waitFor(() => isWhole(collector.spans, webhook), 10_000, 100).catch(() => undefined);

        expectOneUnbrokenTrace(collector.spans, (span) => span.kind === 'SERVER' && span.service === 'vault');
      } finally {
        await system.stop();
        await receiver.stop();
      }
    }, 120_000);
  });
});

function isWhole(spans: CollectedSpan[], leaf: CollectedSpan): boolean {
  try {
    return ancestry(spans, leaf)[0]?.service === 'gateway';
  } catch {
    return false;
  }
}

/** Embedded: one process, so a span's service is the nearest in-process server span's (or the gateway's). */
function serviceOfEmbedded(span: CollectedSpan, spans: CollectedSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let current: CollectedSpan | undefined = span; current; current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined) {
    if (current.name === 'consume token.created' || current.name === 'POST webhook') return 'notifier';
    if (current.service !== 'vaultline-embedded') return current.service;
  }
  return 'gateway';
}

interface OtlpReceiver {
  url: string;
  spans: CollectedSpan[];
  stop(): Promise<void>;
}

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

interface OtlpJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number }> }>;
  }>;
}

/** An OpenTelemetry collector stand-in: POST /v1/traces with OTLP/HTTP JSON bodies. */
async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                parentSpanId: span.parentSpanId ? hex(span.parentSpanId) : undefined,
                name: span.name,
                kind: SPAN_KINDS[span.kind ?? 0] ?? 'UNSPECIFIED',
                service,
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** OTLP JSON ids are hex; older encoders sent base64. */
function hex(id: string): string {
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

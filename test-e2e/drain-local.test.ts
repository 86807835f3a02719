import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'undici';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, waitFor } from '@vaultline/core';
import { startLocal, type LocalSystem } from '@vaultline/launcher';
import { MERCHANT_API_KEY, MerchantApi } from './support/merchant-api';
import { registerWebhookEndpoint } from './support/import-scenario';

/**
 * SIGTERM under load in the local profile: a steady stream of POST /tokens and their webhooks while
 * the vault, then the notifier, is terminated and started again, with SHUTDOWN_DELAY_SECONDS=2.
 *
 * The sequence checked: on SIGTERM the vault's /ready answers 503 at once while it goes on answering
 * requests for the delay; then it drains (every request it accepted is answered) and exits 0. While it
 * is gone, the gateway's requests meet a refused connection and wait for the new vault
 * (GATEWAY_UPSTREAM_CONNECT_RETRY): 0 failed requests over the whole run. No message is lost: every
 * token answered 201 has its token.created webhook delivered, across both restarts.
 */
const SHUTDOWN_GRACE_MS = 10_000;
const SHUTDOWN_DELAY_SECONDS = 2;
const WORKERS = 4;

interface Outcome {
  status: number;
  code?: string;
  detail?: string;
  tokenId?: string;
  startedAt: number;
  endedAt: number;
}

describe('SIGTERM drain under load, local profile', () => {
  let dataDir: string;
  let system: LocalSystem | undefined;
  let receiver: SlowReceiver | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-drain-'));
  });
  afterEach(async () => {
    await system?.stop();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the vault and then the notifier get SIGTERM and restart under a stream of POST /tokens, then the vault fails /ready at once and keeps answering for SHUTDOWN_DELAY_SECONDS, no request fails, both exit 0 within the delay plus SHUTDOWN_GRACE_MS, and every token.created reaches its webhook', async () => {
    // Each delivery takes 50 ms, so the notifier has deliveries in flight when it is told to stop.
    receiver = await startSlowReceiver(50);
    system = await startLocal({
      dataDir,
      port: 0,
      stdio: 'files',
      env: {
        BOOTSTRAP_API_KEY: MERCHANT_API_KEY,
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
        SHUTDOWN_DELAY_SECONDS: String(SHUTDOWN_DELAY_SECONDS),
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    const merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
    await registerWebhookEndpoint(merchant, receiver.url, ['token.created']);

    const outcomes: Outcome[] = [];
    let loading = true;
    const load = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; loading; i++) {
        const startedAt = Date.now();
        const answer = await merchant.call('POST', '/tokens', {
          json: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' }, business_key: `drain-${worker}-${i}` },
        });
        const body = answer.text ? (JSON.parse(answer.text) as { id?: string; code?: string; detail?: string }) : {};
        outcomes.push({
          status: answer.status,
          code: body.code,
          detail: body.detail,
          tokenId: answer.status === 201 ? body.id : undefined,
          startedAt,
          endedAt: Date.now(),
        });
      }
    });

    await sleep(1_000);
    const vaultReady = readinessWatch(system, 'vault');
    const vault = await terminateTimed(system, 'vault');
    const readyAnswers = await vaultReady.stop();
    await system.start('vault');
    await sleep(1_000);
    const notifier = await terminateTimed(system, 'notifier');
    await system.start('notifier');
    await sleep(1_000);
    loading = false;
    await Promise.all(load);

    const created = outcomes.filter((o) => o.status === 201).map((o) => o.tokenId as string);
    const failed = outcomes.filter((o) => o.status !== 201);
    const inFlightAtVaultSigterm = outcomes.filter((o) => o.startedAt < vault.signalledAt && o.endedAt > vault.signalledAt);
    // Answered by the stopping vault during its delay: sent after SIGTERM, answered before the drain began.
    const servedDuringDelay = outcomes.filter(
      (o) => o.status === 201 && o.startedAt > vault.signalledAt + 100 && o.endedAt < vault.signalledAt + SHUTDOWN_DELAY_SECONDS * 1000 - 100,
    );
    const unreadyAfterSigterm = readyAnswers.filter((answer) => answer.at > vault.signalledAt && answer.at < vault.signalledAt + SHUTDOWN_DELAY_SECONDS * 1000);
    await waitFor(() => created.every((id) => receiver!.tokenIds.has(id)), 60_000, 100).catch(() => undefined);
    const lost = created.filter((id) => !receiver!.tokenIds.has(id));

    // The figures of the run, for the report (jest prints them with --verbose off only on failure).
    const figures = {
      requests: outcomes.length,
      created: created.length,
      failed: failed.map((o) => `${o.status} ${o.code} ${o.detail} +${o.startedAt - vault.signalledAt}ms`),
      servedDuringDelay: servedDuringDelay.length,
      vaultReadyAfterSigterm: unreadyAfterSigterm.map((answer) => answer.status),
      inFlightAtVaultSigterm: inFlightAtVaultSigterm.map((o) => o.status),
      vault: { exitCode: vault.exitCode, drainMs: vault.ms },
      notifier: { exitCode: notifier.exitCode, drainMs: notifier.ms },
      webhooksDelivered: receiver.tokenIds.size,
      lost: lost.length,
    };
    process.stdout.write(`drain figures: ${JSON.stringify(figures)}\n`);

    expect(created.length).toBeGreaterThan(50);
    expect(failed).toEqual([]);
    expect(inFlightAtVaultSigterm.length).toBeGreaterThan(0);
    // The delay: /ready fails from the signal on, and requests are still answered by the stopping vault.
    expect(unreadyAfterSigterm.length).toBeGreaterThan(0);
    expect(unreadyAfterSigterm.every((answer) => answer.status === 503)).toBe(true);
    expect(servedDuringDelay.length).toBeGreaterThan(0);
    expect({ vault: vault.exitCode, notifier: notifier.exitCode }).toEqual({ vault: 0, notifier: 0 });
    expect(Math.min(vault.ms, notifier.ms)).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_SECONDS * 1000);
    expect(Math.max(vault.ms, notifier.ms)).toBeLessThan(SHUTDOWN_DELAY_SECONDS * 1000 + SHUTDOWN_GRACE_MS);
    expect(lost).toEqual([]);
    // Each process serves its own /metrics on METRICS_PORT: the restarted vault counts from its restart.
    const vaultMetrics = await (await fetch(system.metricsUrls.vault)).text();
    expect(vaultMetrics).toMatch(/vaultline_http_requests_total\{service="vault",method="POST",route="\/tokens",status="201"\} \d+/);
    expect(await (await fetch(system.metricsUrls.notifier)).text()).toMatch(
      /vaultline_webhook_deliveries_total\{service="notifier",endpoint="[^"]+",outcome="delivered"\} \d+/,
    );
  }, 180_000);
});

/** Polls a service's /ready over mutual TLS (as a kubelet would) until stopped; what it answered, and when. */
function readinessWatch(system: LocalSystem, service: 'vault'): { stop(): Promise<Array<{ at: number; status: number }>> } {
  const tls = system.internalTls!;
  const dispatcher = new Agent({ connect: { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) } });
  const answers: Array<{ at: number; status: number }> = [];
  let watching = true;
  const loop = (async () => {
    while (watching) {
      const at = Date.now();
      const status = await request(`${system.serviceUrls[service]}/ready`, { dispatcher })
        .then(async (response) => (await response.body.dump(), response.statusCode))
        .catch(() => 0);
      answers.push({ at, status });
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await loop;
      await dispatcher.close();
      return answers;
    },
  };
}

async function terminateTimed(system: LocalSystem, service: 'vault' | 'notifier'): Promise<{ exitCode: number | null; ms: number; signalledAt: number }> {
  const signalledAt = Date.now();
  const exitCode = await system.terminate(service);
  return { exitCode, ms: Date.now() - signalledAt, signalledAt };
}

interface SlowReceiver {
  url: string;
  /** The token ids of the token.created webhooks received (each once, however often delivered). */
  tokenIds: Set<string>;
  stop(): Promise<void>;
}

/** A merchant's webhook endpoint that takes `delayMs` to answer 204. */
async function startSlowReceiver(delayMs: number): Promise<SlowReceiver> {
  const tokenIds = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { token_id?: string } };
      setTimeout(() => {
        if (body.type === 'token.created' && body.data.token_id) tokenIds.add(body.data.token_id);
        res.writeHead(204).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    tokenIds,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

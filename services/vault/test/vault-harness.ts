import { Writable } from 'node:stream';
import { generateInternalKeyPair, InternalTokenSigner, InternalTokenVerifier } from '@vaultline/auth';
import { openBus, type Bus } from '@vaultline/bus';
import { ManualClock, newId } from '@vaultline/core';
import { generateKey } from '@vaultline/crypto';
import { startHttpServer } from '@vaultline/http';
import { SERVICE_NAMES, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore, type DocumentStore } from '@vaultline/store';
import { MemoryTtlStore, type TtlStore } from '@vaultline/ttl';
import { createApp, loadVaultConfig, type VaultApp, type VaultConfig } from '../src';

export interface Caller {
  issuer?: string;
  merchantId: string;
  scopes: string[];
  /** The merchant key's mode signed into the internal token; merchant callers default to test. */
  mode?: 'test' | 'live';
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Record<string, unknown>[] };
  headers: Headers;
}

export interface VaultHarnessOptions {
  store?: DocumentStore;
  ttl?: TtlStore;
  bus?: Bus;
  clock?: ManualClock;
  /** Configuration as the environment gives it; keys from testKeyEnv() unless it names its own. */
  env?: Record<string, string>;
  /** Receives every log line (at LOG level debug). */
  logLines?: string[];
}

export interface VaultHarness {
  baseUrl: string;
  app: VaultApp;
  /** What the app was built from, as the composition root gets it (keys included). */
  config: VaultConfig;
  runtime: ServiceRuntime;
  clock: ManualClock;
  call(caller: Caller, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  signerFor(issuer: string): InternalTokenSigner;
  stop(): Promise<void>;
}

export const MERCHANT: Caller = { merchantId: 'merchant_a', scopes: ['merchant', 'card_data'], mode: 'test' };
/** Merchant a with a live key. */
export const MERCHANT_LIVE: Caller = { ...MERCHANT, mode: 'live' };
export const OTHER_MERCHANT: Caller = { merchantId: 'merchant_b', scopes: ['merchant', 'card_data'], mode: 'test' };
/** Merchant a's documents in test mode, as the store reads them. */
export const MERCHANT_SCOPE = { merchantId: 'merchant_a', mode: 'test' } as const;
export const FORWARDER = (merchantId = MERCHANT.merchantId, mode: 'test' | 'live' = 'test'): Caller => ({
  issuer: 'forwarder',
  merchantId,
  scopes: ['tokens:detokenize'],
  mode,
});
export const ADMIN: Caller = { merchantId: '__system__', scopes: ['admin'] };
export const PUBLIC: Caller = { merchantId: '__public__', scopes: ['public'] };

/** Fresh key material as the environment gives it: KEK `versions` (the `active` one wraps new keys) and a fingerprint key. */
export function testKeyEnv(versions: number[] = [1], active = versions[0]!): Record<string, string> {
  return {
    VAULT_KEK_KEYS: versions.map((v) => `${v}:${generateKey().toString('base64')}`).join(','),
    VAULT_KEK_ACTIVE_VERSION: String(active),
    VAULT_FINGERPRINT_KEY: generateKey().toString('base64'),
  };
}

/** Starts the vault alone on loopback with real adapters (memory by default) and signs calls as the gateway. */
export async function startVault(options: VaultHarnessOptions = {}): Promise<VaultHarness> {
  const clock = options.clock ?? new ManualClock(new Date());
  const issuers = ['gateway', 'forwarder', 'importer', 'payment-orchestrator'];
  const pairs = Object.fromEntries(issuers.map((issuer) => [issuer, generateInternalKeyPair()]));
  const signers = Object.fromEntries(issuers.map((issuer) => [issuer, new InternalTokenSigner(issuer, pairs[issuer]!.privateKeyPem)]));
  const verifier = new InternalTokenVerifier('vault', Object.fromEntries(issuers.map((issuer) => [issuer, pairs[issuer]!.publicKeyPem])));
  const lines = options.logLines;
  const destination = lines
    ? new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      })
    : undefined;
  const logger = createLogger({ service: 'vault', level: lines ? 'debug' : 'silent', ...(destination ? { destination } : {}) });
  const runtime: ServiceRuntime = {
    store: options.store ?? new MemoryDocumentStore(),
    bus: options.bus ?? (await openBus('memory://')),
    ttl: options.ttl ?? new MemoryTtlStore({ clock }),
    logger,
    clock,
    signer: signers.gateway!,
    verifier,
    serviceUrls: Object.fromEntries(SERVICE_NAMES.map((s) => [s, 'http://127.0.0.1:9'])) as Record<ServiceName, string>,
    publicBaseUrl: 'http://127.0.0.1:9',
  };
  const config = loadVaultConfig({ VAULT_ROTATION_PAUSE: '0', ...testKeyEnv(), ...options.env });
  const app = createApp(runtime, config);
  await app.start();
  const server = await startHttpServer(app.http);

  return {
    baseUrl: server.url,
    app,
    config,
    runtime,
    clock,
    signerFor: (issuer) => signers[issuer]!,
    async call(caller, method, path, body, headers = {}) {
      const token = signers[caller.issuer ?? 'gateway']!.sign('vault', {
        merchantId: caller.merchantId,
        scopes: caller.scopes,
        ...(caller.mode ? { mode: caller.mode } : {}),
      });
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: Answer['body'] = {};
      try {
        parsed = text ? (JSON.parse(text) as Answer['body']) : {};
      } catch {
        parsed = { raw: text };
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop() {
      await server.close();
      await app.stop();
      if (!options.bus) await runtime.bus.close();
      if (!options.ttl) await runtime.ttl.close();
      if (!options.store) await runtime.store.close();
    },
  };
}

/** Subscribes to topics and keeps every message value (for event assertions and the leak scan). */
export async function captureTopics(
  bus: Bus,
  topics: string[],
  group = `capture-${newId()}`,
): Promise<{ values: string[]; events: () => Record<string, unknown>[]; stop: () => Promise<void> }> {
  const values: string[] = [];
  await bus.ensureTopics(topics);
  const subscription = await bus.subscribe({
    topics,
    group,
    handler: async (delivery) => {
      values.push(delivery.value);
    },
  });
  return {
    values,
    events: () => values.map((v) => JSON.parse(v) as Record<string, unknown>),
    stop: () => subscription.stop(),
  };
}

export const aCard = (overrides: Record<string, unknown> = {}) => ({
  number: '4242 4242 4242 4242',
  exp_month: '12',
  exp_year: '2034',
  cvc: '123',
  name: '  Ada   Lovelace ',
  ...overrides,
});

import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenSigner, InternalTokenVerifier } from '@vaultline/auth';
import { openBus, type Bus } from '@vaultline/bus';
import { systemClock, type Scope } from '@vaultline/core';
import { startHttpServer, type RunningServer } from '@vaultline/http';
import { SERVICE_NAMES, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore, type DocumentStore } from '@vaultline/store';
import { MemoryTtlStore } from '@vaultline/ttl';
import { startVault, type VaultHarness } from '../../../vault/test/vault-harness';
import type { ServiceApp } from '@vaultline/runtime';
import { createApp, loadImporterConfig } from '../../src';
import { startProviderASimulator, type ProviderASimulator, type ProviderASimulatorOptions } from '../../dev/provider-a-simulator';
import { startFakeGateway, type FakeGateway } from './fake-gateway';

export const MERCHANT = 'merchant_import_a';
/** The merchant's documents as its test key creates them (the fixture's calls use its test key unless told). */
export const MERCHANT_TEST: Scope = { merchantId: MERCHANT, mode: 'test' };
export const MERCHANT_LIVE: Scope = { merchantId: MERCHANT, mode: 'live' };

/** Whose key calls: a merchant id alone means that merchant's test key. */
export type Caller = string | Scope;
const scopeOfCaller = (caller: Caller): Scope => (typeof caller === 'string' ? { merchantId: caller, mode: 'test' } : caller);
export const PLATFORM_KEY = 'sk_test_platform_secret_4f9a';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface ImportFixture {
  simulator: ProviderASimulator;
  vault: VaultHarness;
  gateway: FakeGateway;
  bus: Bus;
  importerStore: DocumentStore;
  importer(): ServiceApp;
  /** Every line the importer logged (level debug), for leak checks. */
  logLines: string[];
  call(method: string, path: string, body?: unknown, caller?: Caller): Promise<Answer>;
  /** Stops the running importer app (as a shutdown would) and starts a fresh one on the same store and bus. */
  restartImporter(env?: Record<string, string>): Promise<void>;
  stopImporter(): Promise<void>;
  startImporter(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export interface ImportFixtureOptions {
  simulator?: Partial<ProviderASimulatorOptions>;
  importerStore?: DocumentStore;
  env?: Record<string, string>;
  /** The bus every service of the fixture uses (a RedeliveringBus in the duplicate-delivery test); closed by its owner. */
  bus?: Bus;
}

/**
 * The whole import path on loopback: the provider_a simulator, a small gateway (key minting and
 * /cde-import with key checks), the real vault, and the importer service, all on one memory bus.
 */
export async function startImportFixture(options: ImportFixtureOptions = {}): Promise<ImportFixture> {
  const bus = options.bus ?? (await openBus('memory://'));
  const vault = await startVault({ bus });
  const importerPair = generateInternalKeyPair();
  const gatewayPair = generateInternalKeyPair();
  const gatewaySigner = new InternalTokenSigner('gateway', gatewayPair.privateKeyPem);
  const gateway = await startFakeGateway({ importerPublicKey: importerPair.publicKeyPem, vaultUrl: vault.baseUrl, signer: vault.signerFor('gateway') });
  // The platform enables forwarding to our /cde-import for the account, as its onboarding would.
  const simulator = await startProviderASimulator({
    apiKey: PLATFORM_KEY,
    customers: 5,
    cardsPerCustomer: 4,
    forwardingDestinations: [`${gateway.url}/cde-import`],
    allowHttpLoopbackDestinations: true,
    ...options.simulator,
  });
  const importerStore = options.importerStore ?? new MemoryDocumentStore();
  const secretKey = randomBytes(32).toString('base64');
  const logLines: string[] = [];
  const logger = createLogger({
    service: 'importer',
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    }),
  });
  const runtime: ServiceRuntime = {
    store: importerStore,
    bus,
    ttl: new MemoryTtlStore(),
    logger,
    clock: systemClock,
    signer: new InternalTokenSigner('importer', importerPair.privateKeyPem),
    verifier: new InternalTokenVerifier('importer', { gateway: gatewayPair.publicKeyPem }),
    serviceUrls: {
      ...(Object.fromEntries(SERVICE_NAMES.map((s) => [s, 'http://127.0.0.1:9'])) as Record<ServiceName, string>),
      gateway: gateway.url,
      vault: vault.baseUrl,
    },
    publicBaseUrl: gateway.url,
  };

  let app: ServiceApp | null = null;
  let server: RunningServer | null = null;

  const startImporter = async (env: Record<string, string> = {}) => {
    const config = loadImporterConfig({
      IMPORTER_SECRET_KEY: secretKey,
      PROVIDER_A_BASE_URL: simulator.baseUrl,
      IMPORTER_ALLOW_PRIVATE_PROVIDER: 'true',
      IMPORTER_RETRY_BASE_MS: '20',
      IMPORTER_PAGE_SIZE: '3',
      IMPORTER_CHECKPOINT_EVERY: '2',
      IMPORTER_WORKER_ID: 'importer-test',
      ...options.env,
      ...env,
    });
    app = createApp(runtime, config);
    await app.start();
    server = await startHttpServer(app.http);
  };
  const stopImporter = async () => {
    await server?.close();
    await app?.stop();
    server = null;
    app = null;
  };

  await startImporter();

  return {
    simulator,
    vault,
    gateway,
    bus,
    importerStore,
    logLines,
    importer: () => {
      if (!app) throw new Error('the importer is stopped');
      return app;
    },
    async call(method, path, body, caller = MERCHANT) {
      if (!server) throw new Error('the importer is stopped');
      const { merchantId, mode } = scopeOfCaller(caller);
      const token = gatewaySigner.sign('importer', { merchantId, scopes: ['merchant'], mode });
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    restartImporter: async (env) => {
      await stopImporter();
      await startImporter(env);
    },
    stopImporter,
    startImporter,
    async stop() {
      await stopImporter();
      await simulator.stop();
      await gateway.stop();
      await vault.stop();
      if (!options.bus) await bus.close();
      if (!options.importerStore) await importerStore.close();
    },
  };
}

/** Tokens the vault holds for the merchant in one mode (test unless told), all pages. */
export async function vaultTokens(fixture: ImportFixture, caller: Caller = MERCHANT): Promise<Record<string, unknown>[]> {
  const { merchantId, mode } = scopeOfCaller(caller);
  const tokens: Record<string, unknown>[] = [];
  let after: string | null = null;
  for (;;) {
    const answer = await fixture.vault.call({ merchantId, scopes: ['merchant'], mode }, 'GET', `/tokens?limit=100${after ? `&starting_after=${after}` : ''}`);
    const data = (answer.body.data ?? []) as Record<string, unknown>[];
    tokens.push(...data);
    if (!answer.body.has_more) return tokens;
    after = String(answer.body.next_cursor);
  }
}

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { systemClock, type Scope } from '@vaultline/core';
import { InternalTokenSigner, InternalTokenVerifier, SCOPES, generateInternalKeyPair } from '@vaultline/auth';
import { eventMessage, openBus, type Bus } from '@vaultline/bus';
import type { AnyEventDefinition, EventData } from '@vaultline/contracts';
import { SERVICE_NAMES, type ServiceApp, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore, SqliteDocumentStore, type DocumentStore } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import { createApp } from '../../src/app';
import { loadNotifierConfig } from '../../src/config';

export const TEST_NOTIFIER_KEY = randomBytes(32).toString('base64');

export interface HarnessOptions {
  /** An SQLite file, so a second harness can reopen the same data (restart tests). */
  storeFile?: string;
  bus?: Bus;
  env?: Record<string, string>;
}

/** Whose key calls or whose event it is: a merchant id alone means that merchant's test key (test mode). */
export type Caller = string | Scope;

export const scopeOfCaller = (caller: Caller): Scope => (typeof caller === 'string' ? { merchantId: caller, mode: 'test' } : caller);

export interface Harness {
  baseUrl: string;
  app: ServiceApp;
  store: DocumentStore;
  bus: Bus;
  // Responses are arbitrary JSON that each test reads by path.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(caller: Caller, method: string, path: string, body?: unknown, scopes?: string[]): Promise<{ status: number; body: any }>;
  publish<D extends AnyEventDefinition>(definition: D, caller: Caller, data: EventData<D>, id?: string): Promise<string>;
  stop(options?: { keepBus?: boolean }): Promise<void>;
}

/** The notifier is not given a TTL store use; a stub satisfies the runtime type. */
const unusedTtl: TtlStore = {
  set: async () => {},
  setIfAbsent: async () => true,
  get: async () => null,
  remainingMs: async () => null,
  delete: async () => {},
  increment: async () => 1,
  takeToken: async () => ({ allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 0 }),
  ping: async () => {},
  close: async () => {},
};

const gatewayKeys = generateInternalKeyPair();
const notifierKeys = generateInternalKeyPair();
const gatewaySigner = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem);

/** The notifier with real adapters (memory or SQLite store, in-memory bus) served on loopback. */
export async function startNotifier(options: HarnessOptions = {}): Promise<Harness> {
  const store = options.storeFile ? await SqliteDocumentStore.open(options.storeFile) : new MemoryDocumentStore();
  const bus = options.bus ?? (await openBus('memory://'));
  const runtime: ServiceRuntime = {
    store,
    bus,
    ttl: unusedTtl,
    logger: createLogger({ service: 'notifier', level: process.env.LOG_LEVEL ?? 'silent' }),
    clock: systemClock,
    signer: new InternalTokenSigner('notifier', notifierKeys.privateKeyPem),
    verifier: new InternalTokenVerifier('notifier', { gateway: gatewayKeys.publicKeyPem }),
    serviceUrls: Object.fromEntries(SERVICE_NAMES.map((s) => [s, 'http://127.0.0.1:9'])) as Record<ServiceName, string>,
    publicBaseUrl: 'http://localhost:8080',
  };
  const config = loadNotifierConfig({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,30,30,30',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '5000',
    NOTIFIER_SECRET_KEY: TEST_NOTIFIER_KEY,
    ...options.env,
  });
  const app = createApp(runtime, config);
  await app.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.http.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    app,
    store,
    bus,
    async call(caller, method, path, body, scopes = [SCOPES.merchant]) {
      const { merchantId, mode } = scopeOfCaller(caller);
      const token = gatewaySigner.sign('notifier', { merchantId, scopes, mode });
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async publish(definition, caller, data, id) {
      const message = eventMessage(definition, { scope: scopeOfCaller(caller), data, ...(id ? { id } : {}) });
      await bus.publish([message]);
      return (JSON.parse(message.value) as { id: string }).id;
    },
    async stop(stopOptions = {}) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await store.close();
      if (!stopOptions.keepBus && !options.bus) await bus.close();
    },
  };
}

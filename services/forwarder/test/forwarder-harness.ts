import { systemClock } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { openBus } from '@vaultline/bus';
import { MemoryTtlStore } from '@vaultline/ttl';
import { createLogger } from '@vaultline/logger';
import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { startHttpServer } from '@vaultline/http';
import { SERVICE_NAMES, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { createApp } from '../src/app';
import { loadForwarderConfig } from '../src/config';
import { startFakeVault } from './fake-vault';

/** The forwarder with real adapters (memory store and bus), a fake vault and a gateway-signed caller. */
export async function startForwarder(env: Record<string, string>) {
  const gatewayKeys = generateInternalKeyPair();
  const forwarderKeys = generateInternalKeyPair();
  const orchestratorKeys = generateInternalKeyPair();
  const vault = await startFakeVault(forwarderKeys.publicKeyPem);
  const bus = await openBus('memory://');
  const runtime: ServiceRuntime = {
    store: new MemoryDocumentStore(),
    bus,
    ttl: new MemoryTtlStore(),
    logger: createLogger({ service: 'forwarder', level: 'silent' }),
    clock: systemClock,
    signer: new InternalTokenSigner('forwarder', forwarderKeys.privateKeyPem),
    verifier: new InternalTokenVerifier('forwarder', { gateway: gatewayKeys.publicKeyPem, 'payment-orchestrator': orchestratorKeys.publicKeyPem }),
    serviceUrls: Object.fromEntries(SERVICE_NAMES.map((name) => [name, vault.url])) as Record<ServiceName, string>,
    publicBaseUrl: 'http://127.0.0.1',
  };
  const app = createApp(runtime, loadForwarderConfig(env));
  await app.start();
  const server = await startHttpServer(app.http);
  const gateway = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem);
  /** Signs as the payment orchestrator: the caller of the internal payments forward. */
  const orchestrator = new InternalTokenSigner('payment-orchestrator', orchestratorKeys.privateKeyPem);

  /** `mode`: the merchant key's mode the gateway signs in (test by default). */
  async function call(
    merchantId: string,
    scopes: string[],
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
    mode: 'test' | 'live' = 'test',
  ) {
    const token = gateway.sign('forwarder', { merchantId, scopes, mode });
    const response = await fetch(`${server.url}${path}`, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }

  return {
    runtime,
    app,
    url: server.url,
    vault,
    call,
    gateway,
    orchestrator,
    async stop() {
      await app.stop();
      await server.close();
      await vault.close();
      await bus.close();
    },
  };
}

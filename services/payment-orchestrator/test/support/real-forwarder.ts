import { InternalTokenVerifier } from '@vaultline/auth';
import { openBus } from '@vaultline/bus';
import { PROCESSOR_MANIFESTS, type ForwarderInternalApi, type ProcessorManifest } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import { SERVICE_NAMES, type ServiceName, type ServiceRuntime } from '@vaultline/runtime';
import { MemoryDocumentStore } from '@vaultline/store';
import { MemoryTtlStore } from '@vaultline/ttl';
import { createApp as createForwarder, loadForwarderConfig } from '../../../forwarder/src';
import { MERCHANT as VAULT_MERCHANT, startVault, type VaultHarness } from '../../../vault/test/vault-harness';
import { ORCHESTRATOR_PUBLIC_KEY } from './orchestrator-harness';

export interface RealForwarder {
  /** The forwarder's internal API, for the orchestrator's runtime (inProcessApis.forwarder), as the embedded profile hands it over. */
  api: ForwarderInternalApi;
  /** Stores a card in the vault for merchant_a in test mode; its token id goes on the payment. */
  tokenize(card: { number: string; exp_month: number; exp_year: number; cvc: string }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The real vault and forwarder in this process, the forwarder reading the vault's in-process API: a card
 * the test tokenized is revealed by the vault (audited) and filled into a processor's request by the
 * forwarder (its allowlist, card fields and forwarded headers from `processors`' manifests, egress, the
 * forward record). `extraDestinations`: what an operator lists in FORWARD_EXTRA_DESTINATIONS (a stand-in on
 * loopback).
 */
export async function startRealForwarder(options: { processors?: readonly ProcessorManifest[]; extraDestinations: string[] }): Promise<RealForwarder> {
  const vault: VaultHarness = await startVault();
  const bus = await openBus('memory://');
  const runtime: ServiceRuntime = {
    store: new MemoryDocumentStore(),
    bus,
    ttl: new MemoryTtlStore(),
    logger: createLogger({ service: 'forwarder', level: 'silent' }),
    clock: vault.clock,
    signer: vault.signerFor('forwarder'),
    verifier: new InternalTokenVerifier('forwarder', { 'payment-orchestrator': ORCHESTRATOR_PUBLIC_KEY }),
    serviceUrls: Object.fromEntries(SERVICE_NAMES.map((name) => [name, 'http://127.0.0.1:9'])) as Record<ServiceName, string>,
    publicBaseUrl: 'http://127.0.0.1:9',
    inProcessApis: { vault: vault.app.exposedApis.vault },
  };
  const config = loadForwarderConfig({ FORWARD_EXTRA_DESTINATIONS: options.extraDestinations.join(','), FORWARD_HTTPS_ONLY: 'false' });
  const forwarder = createForwarder(runtime, config, { processors: options.processors ?? PROCESSOR_MANIFESTS });
  await forwarder.start();
  return {
    api: forwarder.exposedApis!.forwarder!,
    async tokenize(card) {
      const answer = await vault.call(VAULT_MERCHANT, 'POST', '/tokens', { card });
      if (answer.status !== 201) throw new Error(`POST /tokens answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body.id as string;
    },
    async stop() {
      await forwarder.stop();
      await bus.close();
      await vault.stop();
    },
  };
}

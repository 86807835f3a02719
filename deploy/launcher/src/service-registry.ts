import type { ServiceApp, ServiceName, ServiceRuntime } from '@vaultline/runtime';
import * as gateway from '@vaultline/gateway';
import * as vault from '@vaultline/vault';
import * as forwarder from '@vaultline/forwarder';
import * as importer from '@vaultline/importer';
import * as paymentOrchestrator from '@vaultline/payment-orchestrator';
import * as notifier from '@vaultline/notifier';

/** Builds a service from the shared runtime and the environment (each service parses its own config). */
export type ServiceFactory = (runtime: ServiceRuntime, env: NodeJS.ProcessEnv) => ServiceApp;

/**
 * Every service of the system, in start order: the vault before the forwarder (which takes the
 * vault's in-process API in the embedded profile), the gateway last, once its upstreams exist.
 */
export const serviceFactories = {
  vault: (runtime, env) => vault.createApp(runtime, vault.loadVaultConfig(env)),
  forwarder: (runtime, env) => forwarder.createApp(runtime, forwarder.loadForwarderConfig(env)),
  importer: (runtime, env) => importer.createApp(runtime, importer.loadImporterConfig(env)),
  'payment-orchestrator': (runtime, env) =>
    paymentOrchestrator.createApp(runtime, paymentOrchestrator.loadPaymentOrchestratorConfig(env)),
  notifier: (runtime, env) => notifier.createApp(runtime, notifier.loadNotifierConfig(env)),
  gateway: (runtime, env) => gateway.createApp(runtime, gateway.loadGatewayConfig(env)),
} satisfies Record<ServiceName, ServiceFactory>;

export const startOrder = Object.keys(serviceFactories) as ServiceName[];

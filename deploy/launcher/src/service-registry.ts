import type { ServiceApp, ServiceName, ServiceRuntime } from '@vaultline/runtime';

/** Builds a service from the shared runtime and the environment (each service parses its own config). */
export type ServiceFactory = (runtime: ServiceRuntime, env: NodeJS.ProcessEnv) => ServiceApp;

/**
 * Every service of the system, in start order: the vault before the forwarder (which takes the
 * vault's in-process API in the embedded profile), the gateway last, once its upstreams exist. Each
 * factory is loaded when asked for, so that a service thread loads only its own service's modules.
 */
export const serviceFactories = {
  vault: async () => {
    const { createApp, loadVaultConfig } = await import('@vaultline/vault');
    return (runtime, env) => createApp(runtime, loadVaultConfig(env));
  },
  forwarder: async () => {
    const { createApp, loadForwarderConfig } = await import('@vaultline/forwarder');
    return (runtime, env) => createApp(runtime, loadForwarderConfig(env));
  },
  importer: async () => {
    const { createApp, loadImporterConfig } = await import('@vaultline/importer');
    return (runtime, env) => createApp(runtime, loadImporterConfig(env));
  },
  'payment-orchestrator': async () => {
    const { createApp, loadPaymentOrchestratorConfig } = await import('@vaultline/payment-orchestrator');
    return (runtime, env) => createApp(runtime, loadPaymentOrchestratorConfig(env));
  },
  notifier: async () => {
    const { createApp, loadNotifierConfig } = await import('@vaultline/notifier');
    return (runtime, env) => createApp(runtime, loadNotifierConfig(env));
  },
  gateway: async () => {
    const { createApp, loadGatewayConfig } = await import('@vaultline/gateway');
    return (runtime, env) => createApp(runtime, loadGatewayConfig(env));
  },
} satisfies Record<ServiceName, () => Promise<ServiceFactory>>;

export const startOrder = Object.keys(serviceFactories) as ServiceName[];

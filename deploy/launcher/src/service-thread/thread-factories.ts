import type { ServiceFactory } from '../service-registry';
import type { THREADABLE_SERVICES } from './thread-config';

/**
 * The factories of the services that can run on a thread, loaded on demand: a service thread
 * compiles and loads only its own service's modules, not the whole system's (start-up time).
 */
export const threadFactories: Record<(typeof THREADABLE_SERVICES)[number], () => Promise<ServiceFactory>> = {
  vault: async () => {
    const { createApp, loadVaultConfig } = await import('@vaultline/vault');
    return (runtime, env) => createApp(runtime, loadVaultConfig(env));
  },
  importer: async () => {
    const { createApp, loadImporterConfig } = await import('@vaultline/importer');
    return (runtime, env) => createApp(runtime, loadImporterConfig(env));
  },
  notifier: async () => {
    const { createApp, loadNotifierConfig } = await import('@vaultline/notifier');
    return (runtime, env) => createApp(runtime, loadNotifierConfig(env));
  },
  'payment-orchestrator': async () => {
    const { createApp, loadPaymentOrchestratorConfig } = await import('@vaultline/payment-orchestrator');
    return (runtime, env) => createApp(runtime, loadPaymentOrchestratorConfig(env));
  },
};

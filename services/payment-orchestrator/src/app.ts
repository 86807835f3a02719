import { metricsOf, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { createServiceHttp } from '@vaultline/http';
import type { PaymentOrchestratorConfig } from './config';
import { paymentsNotAvailableRoutes } from './http/payments-not-available';

export function createApp(runtime: ServiceRuntime, _config: PaymentOrchestratorConfig): ServiceApp {
  const http = createServiceHttp({
    service: 'payment-orchestrator',
    verifier: runtime.verifier,
    metrics: metricsOf(runtime, 'payment-orchestrator'),
    logger: runtime.logger,
    readiness: () => runtime.store.ping(),
    routes: paymentsNotAvailableRoutes,
  });
  return {
    name: 'payment-orchestrator',
    http,
    start: async () => {},
    stop: async () => {},
  };
}

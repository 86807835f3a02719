// The payment-orchestrator as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('payment-orchestrator');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'payment-orchestrator',
    async (runtime, env) => {
      const { createApp, loadPaymentOrchestratorConfig } = await import('./index');
      return createApp(runtime, loadPaymentOrchestratorConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/collections')).orchestratorCollections },
  ),
);

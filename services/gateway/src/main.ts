// The gateway as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('gateway');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'gateway',
    async (runtime, env) => {
      const { createApp, loadGatewayConfig } = await import('./index');
      return createApp(runtime, loadGatewayConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/collections')).gatewayCollections },
  ),
);

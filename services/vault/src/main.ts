// The vault as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('vault');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'vault',
    async (runtime, env) => {
      const { createApp, loadVaultConfig } = await import('./index');
      return createApp(runtime, loadVaultConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/collections')).collectionSpecs },
  ),
);

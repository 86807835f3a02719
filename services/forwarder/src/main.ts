// The forwarder as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('forwarder');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'forwarder',
    async (runtime, env) => {
      const { createApp, loadForwarderConfig } = await import('./index');
      return createApp(runtime, loadForwarderConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/collections')).forwarderCollections },
  ),
);

// The notifier as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('notifier');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'notifier',
    async (runtime, env) => {
      const { createApp, loadNotifierConfig } = await import('./index');
      return createApp(runtime, loadNotifierConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/collections')).notifierCollections },
  ),
);

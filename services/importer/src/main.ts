// The importer as its own process (local and production profiles). Telemetry starts before anything
// else loads, so the http and express instrumentations can patch those modules.
import { startTelemetryFromEnv } from '@vaultline/telemetry';

const telemetry = startTelemetryFromEnv('importer');

void import('@vaultline/runtime').then(({ runStandalone }) =>
  runStandalone(
    'importer',
    async (runtime, env) => {
      const { createApp, loadImporterConfig } = await import('./index');
      return createApp(runtime, loadImporterConfig(env));
    },
    process.env,
    () => telemetry.shutdown(),
    { collections: async () => (await import('./data/import-job.repository')).importCollections },
  ),
);

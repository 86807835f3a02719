// Telemetry first, so the http and express instrumentations patch the modules before they load.
import { startTelemetry } from '@vaultline/telemetry';
// Plain text only (no module the instrumentations patch): safe to load before the telemetry starts.
import { startBanner } from './start-banner';

const telemetry = startTelemetry({
  serviceName: 'vaultline-embedded',
  exporter: (process.env.OTEL_TRACES_EXPORTER as 'none' | 'console' | 'otlp' | undefined) ?? 'none',
  otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
});

async function main(): Promise<void> {
  const startedAt = performance.now();
  const { startEmbedded } = await import('./embedded');
  let failed = false;
  const started: { system?: Awaited<ReturnType<typeof startEmbedded>> } = {};
  const system = await startEmbedded({
    // A service thread that dies takes the process down, as an uncaught error on this thread would.
    onServiceThreadFailure: () => {
      if (failed) return;
      failed = true;
      void (started.system?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
    },
  });
  started.system = system;
  const ms = Math.round(performance.now() - startedAt);
  console.log(`Vaultline (embedded profile) listening on ${system.baseUrl} — started in ${ms} ms`);
  for (const line of startBanner(system.baseUrl)) console.log(line);
  if (system.generatedCredentialsFile) console.log(`  generated BOOTSTRAP_API_KEY and ADMIN_API_KEY are in ${system.generatedCredentialsFile} (mode 0600)`);
  const source = system.generatedCredentialsFile ? `. ${system.generatedCredentialsFile} && ` : '';
  console.log(`  try: ${source}curl -H "X-API-Key: $BOOTSTRAP_API_KEY" ${system.baseUrl}/tokens`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining`);
    // system.stop() cuts requests off once SHUTDOWN_GRACE_MS has passed; the rest (consumers, relays,
    // stores) gets a few seconds more, then the process ends anyway.
    const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 20_000) + 10_000;
    setTimeout(() => {
      console.error(`${signal}: not stopped within ${graceMs} ms; exiting`);
      process.exit(1);
    }, graceMs).unref();
    await system.stop();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

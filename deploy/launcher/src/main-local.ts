import { startLocal } from './local';
import { startBanner } from './start-banner';

async function main(): Promise<void> {
  const system = await startLocal();
  console.log(`Vaultline (local profile: a process per service, Redis Streams, SQLite) on ${system.baseUrl}`);
  for (const line of startBanner(system.baseUrl)) console.log(line);
  if (system.generatedCredentialsFile) console.log(`  generated BOOTSTRAP_API_KEY and ADMIN_API_KEY are in ${system.generatedCredentialsFile} (mode 0600)`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

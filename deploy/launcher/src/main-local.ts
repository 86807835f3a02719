import { startLocal } from './local';
import { startBanner } from './start-banner';
import { stopOnSignals } from './stop-on-signals';

async function main(): Promise<void> {
  const system = await startLocal();
  console.log(`Vaultline (local profile: a process per service, Redis Streams, SQLite) on ${system.baseUrl}`);
  for (const line of startBanner(system.baseUrl)) console.log(line);
  if (system.generatedCredentialsFile) console.log(`  generated BOOTSTRAP_API_KEY and ADMIN_API_KEY are in ${system.generatedCredentialsFile} (mode 0600)`);
  stopOnSignals(system);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

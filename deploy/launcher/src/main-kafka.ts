import { startKafkaProfile } from './kafka';
import { startBanner } from './start-banner';
import { stopOnSignals } from './stop-on-signals';

async function main(): Promise<void> {
  const system = await startKafkaProfile();
  console.log(`Vaultline (Kafka profile: a process per service, Kafka at ${system.brokers}, Redis, SQLite) on ${system.baseUrl}`);
  for (const line of startBanner(system.baseUrl)) console.log(line);
  if (system.generatedCredentialsFile) console.log(`  generated BOOTSTRAP_API_KEY and ADMIN_API_KEY are in ${system.generatedCredentialsFile} (mode 0600)`);
  const source = system.generatedCredentialsFile ? `. ${system.generatedCredentialsFile} && ` : '';
  console.log(`  try: ${source}curl -H "X-API-Key: $BOOTSTRAP_API_KEY" ${system.baseUrl}/tokens`);
  stopOnSignals(system);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

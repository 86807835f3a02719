// Writes the production compose profile's secrets into deploy/secrets/ (keep it out of git):
//   pnpm exec tsx deploy/launcher/src/generate-keys.ts
// A folder per service (mounted at /run/secrets/vaultline in its container only): its ES256 private key,
// the public keys, its TLS certificate of the internal CA (mutual TLS between services), its MongoDB,
// Redis and Kafka credentials, its own keys; a folder per server (kafka, mongo, redis, otel-collector)
// with its certificate and the users it accepts. See deploy-secrets.ts.
// New KEKs make existing card data unreadable: an existing set is kept unless --force is given.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeDeploySecrets } from './deploy-secrets';

const dir = resolve(__dirname, '../../secrets');
if (existsSync(join(dir, 'vault', 'VAULT_KEK_KEYS')) && !process.argv.includes('--force')) {
  console.error(`${dir} already holds secrets (vault/VAULT_KEK_KEYS); new ones would make the stored card data unreadable. Add --force to replace them.`);
  process.exit(1);
}
writeDeploySecrets(dir);
console.log(`wrote keys, certificates and credentials to ${dir}`);

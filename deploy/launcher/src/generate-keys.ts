// Writes the production compose profile's secrets into deploy/secrets/ (keep it out of git):
//   pnpm exec tsx deploy/launcher/src/generate-keys.ts
// One ES256 key pair per service (each private key is mounted only in its service, the public keys
// in all) and one env file per service with its own symmetric secrets (see deploy-secrets.ts).
// New KEKs make existing card data unreadable: an existing set is kept unless --force is given.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeDeploySecrets } from './deploy-secrets';
import { generateDevCertificates } from './dev-ca';
import { SERVICE_NAMES } from '@vaultline/runtime';

const dir = resolve(__dirname, '../../secrets');
if (existsSync(join(dir, 'vault.env')) && !process.argv.includes('--force')) {
  console.error(`${dir} already holds secrets (vault.env); new ones would make the stored card data unreadable. Add --force to replace them.`);
  process.exit(1);
}
writeDeploySecrets(dir);
// Mutual TLS between the containers: a CA and a certificate per service (DNS name = compose service name).
// Each service takes INTERNAL_TLS_CA_FILE, INTERNAL_TLS_CERT_FILE and INTERNAL_TLS_KEY_FILE (its own pair).
generateDevCertificates(join(dir, 'internal-tls'), SERVICE_NAMES, 365);
console.log(`wrote keys and secrets to ${dir}`);

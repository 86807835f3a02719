// Writes one ES256 key pair per service into deploy/secrets/ for the production compose file:
//   pnpm exec tsx deploy/launcher/src/generate-keys.ts
// Each service gets its own private key (INTERNAL_JWT_PRIVATE_KEY_FILE) and every public key
// (INTERNAL_JWT_PUBLIC_KEYS_FILE). Also writes random KEKs and peppers. Keep deploy/secrets/ out of git.
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { SERVICE_NAMES, generateServiceKeys } from '@vaultline/runtime';
import { generateDevCertificates } from './dev-ca';

const dir = resolve(__dirname, '../../secrets');
mkdirSync(dir, { recursive: true, mode: 0o700 });
const keys = generateServiceKeys();
for (const [service, pem] of Object.entries(keys.privateKeys) as Array<[string, string]>) writeFileSync(resolve(dir, `${service}.key.pem`), pem, { mode: 0o600 });
writeFileSync(resolve(dir, 'public-keys.json'), JSON.stringify(keys.publicKeys, null, 2), { mode: 0o644 });
const b64 = () => randomBytes(32).toString('base64');
writeFileSync(
  resolve(dir, 'secrets.env'),
  [
    `API_KEY_PEPPER=${b64()}`,
    `VAULT_KEK_KEYS=1:${b64()}`,
    'VAULT_KEK_ACTIVE_VERSION=1',
    `VAULT_FINGERPRINT_KEY=${b64()}`,
    `NOTIFIER_SECRET_KEY=${b64()}`,
    `IMPORTER_SECRET_KEY=${b64()}`,
    `ADMIN_API_KEY=admin_${randomBytes(24).toString('hex')}`,
    '',
  ].join('\n'),
  { mode: 0o600 },
);
// Mutual TLS between the containers: a CA and a certificate per service (DNS name = compose service name).
// Each service takes INTERNAL_TLS_CA_FILE, INTERNAL_TLS_CERT_FILE and INTERNAL_TLS_KEY_FILE (its own pair).
generateDevCertificates(resolve(dir, 'internal-tls'), SERVICE_NAMES, 365);
console.log(`wrote keys and secrets to ${dir}`);

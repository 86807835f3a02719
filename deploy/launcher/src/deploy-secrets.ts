import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServiceKeys } from '@vaultline/runtime';
import type { ServiceName } from '@vaultline/runtime';

/**
 * The secret files of the production compose profile, one set per service, so that each container
 * holds only what it uses (least privilege: the internet-facing gateway holds no KEK, no fingerprint
 * key, no other service's key). docker-compose.yml mounts them:
 * - `<service>.key.pem`: the service's ES256 private key for internal JWTs, only in that service;
 * - `public-keys.json`: every service's public key, in every service;
 * - `<service>.env`: the symmetric secrets its config.ts reads, only for the services that have any.
 */
export const SERVICE_SECRET_VARIABLES = {
  gateway: ['API_KEY_PEPPER', 'ADMIN_API_KEY'],
  vault: ['VAULT_KEK_KEYS', 'VAULT_KEK_ACTIVE_VERSION', 'VAULT_FINGERPRINT_KEY'],
  importer: ['IMPORTER_SECRET_KEY'],
  notifier: ['NOTIFIER_SECRET_KEY'],
  'payment-orchestrator': ['PAYMENT_ORCHESTRATOR_SECRET_KEY'],
} as const satisfies Partial<Record<ServiceName, readonly string[]>>;

export type ServiceWithSecrets = keyof typeof SERVICE_SECRET_VARIABLES;

const key = () => randomBytes(32).toString('base64');

function secretValues(): { [S in ServiceWithSecrets]: Record<(typeof SERVICE_SECRET_VARIABLES)[S][number], string> } {
  return {
    gateway: { API_KEY_PEPPER: key(), ADMIN_API_KEY: `admin_${randomBytes(24).toString('hex')}` },
    vault: { VAULT_KEK_KEYS: `1:${key()}`, VAULT_KEK_ACTIVE_VERSION: '1', VAULT_FINGERPRINT_KEY: key() },
    importer: { IMPORTER_SECRET_KEY: key() },
    notifier: { NOTIFIER_SECRET_KEY: key() },
    'payment-orchestrator': { PAYMENT_ORCHESTRATOR_SECRET_KEY: key() },
  };
}

/** Writes a fresh set into `dir` (0700; private files 0600, the public keys 0644). */
export function writeDeploySecrets(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const keys = generateServiceKeys();
  for (const [service, pem] of Object.entries(keys.privateKeys)) writeFileSync(join(dir, `${service}.key.pem`), pem, { mode: 0o600 });
  writeFileSync(join(dir, 'public-keys.json'), JSON.stringify(keys.publicKeys, null, 2), { mode: 0o644 });
  for (const [service, values] of Object.entries(secretValues())) {
    const lines = Object.entries(values).map(([name, value]) => `${name}=${value}`);
    writeFileSync(join(dir, `${service}.env`), `${lines.join('\n')}\n`, { mode: 0o600 });
  }
}

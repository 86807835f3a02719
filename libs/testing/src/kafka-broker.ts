import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, newId } from '@vaultline/core';
import { kafkaAvailability, reportSkipped, resolveKafka, type KafkaResolution } from './containers';

/**
 * Real Kafka brokers for tests, from scripts/kafka (Apache Kafka from Maven Central, KRaft, one node):
 * the shared one scripts/test-all starts (KAFKA_BROKERS), and brokers a test owns (it stops and starts them
 * to play an outage, so it cannot use the shared one other suites run on).
 *
 * In CI (CI=true) a Kafka suite never skips: without a broker it fails, saying why. On a developer's
 * machine without one it is skipped with one `[skipped]` line.
 */
const repoRoot = resolve(__dirname, '../../..');
const KAFKA_SCRIPT = join(repoRoot, 'scripts/kafka');
const ANSWERS_SCRIPT = join(repoRoot, 'scripts/kafka-broker/answers.mjs');
/** A broker starting on a loaded machine, the jars fetched the first time included. */
export const KAFKA_START_TIMEOUT_MS = 300_000;

const inCi = (): boolean => Boolean(process.env.CI) && process.env.CI !== 'false';

/** Whether the broker at the first of `brokers` answers a metadata request now (scripts/kafka-broker/answers.mjs: kafkajs). */
export function kafkaAnswers(brokers: string): boolean {
  const first = brokers.split(',')[0]?.trim() ?? '';
  return spawnSync(process.execPath, [ANSWERS_SCRIPT, first], { timeout: 20_000 }).status === 0;
}

/**
 * A prefix for the topics and groups of one test run in one jest worker: runs on the one broker (the Node 20
 * and Node 24 passes, parallel workers, a developer's earlier runs) never see each other's messages.
 */
export function kafkaTestPrefix(label = 'test'): string {
  return `${label}-${process.env.JEST_WORKER_ID ?? '0'}-${newId().slice(-12)}.`;
}

/**
 * Registers `body` under describe(title) with the brokers of KAFKA_BROKERS (or a testcontainers Kafka).
 * Unavailable: in CI one failing test says why; elsewhere the suite is skipped with one `[skipped] <label>`
 * line. Set but not answering: the suite fails in beforeAll. `brokers()` is valid inside hooks and tests.
 */
export function describeWithKafka(title: string, label: string, body: (brokers: () => string) => void): void {
  const availability = kafkaAvailability();
  if (!availability.available)
    return describeUnavailable(title, label, availability.reason, 'scripts/test-all starts one and sets KAFKA_BROKERS', () => body(() => ''));
  describe(title, () => {
    let kafka: KafkaResolution | undefined;
    beforeAll(async () => {
      kafka = await resolveKafka();
      if (!kafka.available) throw new Error(`Kafka was expected (env or container runtime) but: ${kafka.reason}`);
      if (!kafkaAnswers(kafka.brokers)) throw new Error(`Kafka at ${kafka.brokers} (KAFKA_BROKERS) does not answer: start it with scripts/kafka start`);
    }, 180_000);
    afterAll(async () => {
      if (kafka?.available) await kafka.stop();
    });
    body(() => {
      if (!kafka?.available) throw new Error('Kafka is not resolved yet (use brokers() inside hooks and tests)');
      return kafka.brokers;
    });
  });
}

/** A broker of a test's own: scripts/kafka on free ports, in a folder of its own. */
export interface OwnKafkaBroker {
  brokers: string;
  port: number;
  /** scripts/kafka start: resolves once it answers (the first start formats its store). */
  start(): Promise<void>;
  /** scripts/kafka stop: a controlled shutdown, SIGTERM. */
  stop(): Promise<void>;
  /** Stops it and deletes its folder. */
  remove(): Promise<void>;
}

function runKafkaScript(args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile(KAFKA_SCRIPT, args, { timeout: KAFKA_START_TIMEOUT_MS, env: process.env }, (error, stdout, stderr) => {
      if (error) fail(new Error(`scripts/kafka ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else done(stdout);
    });
  });
}

/** Chooses free ports and a folder for a broker; nothing runs until start(). */
export async function ownKafkaBroker(): Promise<OwnKafkaBroker> {
  const port = await freePort();
  const controllerPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-kafka-'));
  const args = ['--port', String(port), '--controller-port', String(controllerPort), '--dir', dir];
  const stop = async () => void (await runKafkaScript(['stop', ...args]));
  return {
    brokers: `127.0.0.1:${port}`,
    port,
    start: async () => void (await runKafkaScript(['start', ...args])),
    stop,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether scripts/kafka can run a broker here (Java and Maven on the PATH). */
export function kafkaToolsAvailability(): { available: true } | { available: false; reason: string } {
  const missing = ['java', 'mvn'].filter((tool) => spawnSync(tool, ['-version'], { stdio: 'ignore' }).status !== 0);
  return missing.length === 0
    ? { available: true }
    : { available: false, reason: `${missing.join(' and ')} not found (scripts/kafka needs Java 17+ and Maven)` };
}

/**
 * Registers `body` under describe(title) when scripts/kafka can run a broker of the suite's own; like
 * describeWithKafka, a failing test in CI and a `[skipped]` line elsewhere when it cannot.
 */
export function describeWithOwnKafka(title: string, label: string, body: () => void): void {
  const availability = kafkaToolsAvailability();
  if (availability.available) return describe(title, body);
  describeUnavailable(title, label, availability.reason, 'Java 17+ and Maven run one', body);
}

/** A Kafka suite that cannot run here: in CI one failing test says why (CI runs every Kafka suite); elsewhere skipped with one line. */
function describeUnavailable(title: string, label: string, reason: string, remedy: string, body: () => void): void {
  if (inCi()) {
    describe(title, () => {
      it(`has a Kafka broker (CI runs every Kafka suite: ${remedy})`, () => {
        throw new Error(`${label} cannot run in CI: ${reason}`);
      });
    });
    return;
  }
  reportSkipped(label, reason);
  describe.skip(title, body);
}

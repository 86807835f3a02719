import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
/** Each case runs a jest of its own: seconds on a quiet machine, more on a loaded one. */
const CHILD_JEST_MS = 120_000;

/** Runs the fixture Kafka suite in a jest of its own with this environment; its JSON result and output. */
function runFixture(env: Record<string, string>): { failed: number; passed: number; skipped: number; messages: string; stdout: string } {
  const out = mkdtempSync(join(tmpdir(), 'kafka-suite-'));
  try {
    const { KAFKA_BROKERS: _brokers, CI: _ci, ...inherited } = process.env;
    const child = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/jest/bin/jest.js'),
        '--config',
        join(root, 'jest.config.js'),
        '--rootDir',
        root,
        '--testMatch',
        '**/libs/testing/test/fixtures/kafka-suite.fixture.ts',
        '--json',
        '--outputFile',
        join(out, 'result.json'),
      ],
      // No container runtime: the probe's answer is given.
      { cwd: root, encoding: 'utf8', timeout: CHILD_JEST_MS, env: { ...inherited, VAULTLINE_CONTAINER_RUNTIME_PROBE: 'no:none here', ...env } },
    );
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as {
      numFailedTests: number;
      numPassedTests: number;
      numPendingTests: number;
      testResults: Array<{ message: string }>;
    };
    return {
      failed: result.numFailedTests,
      passed: result.numPassedTests,
      skipped: result.numPendingTests,
      messages: result.testResults.map((r) => r.message).join('\n'),
      stdout: child.stdout,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe('Kafka suites in CI and on a developer machine', () => {
  it(
    'when CI is set and no broker is configured, then the Kafka suite fails saying why instead of being skipped',
    () => {
      const run = runFixture({ CI: 'true' });

      expect({ failed: run.failed, skipped: run.skipped }).toEqual({ failed: 1, skipped: 0 });
      expect(run.messages).toContain('Fixture Kafka suite cannot run in CI: KAFKA_BROKERS unset and no container runtime');
    },
    CHILD_JEST_MS,
  );

  it(
    'when CI is not set and no broker is configured, then the suite is skipped with one [skipped] line',
    () => {
      const run = runFixture({});

      expect({ failed: run.failed, skipped: run.skipped }).toEqual({ failed: 0, skipped: 1 });
      expect(run.stdout).toContain('[skipped] Fixture Kafka suite: KAFKA_BROKERS unset and no container runtime');
    },
    CHILD_JEST_MS,
  );

  it(
    'when KAFKA_BROKERS names a broker that does not answer, then the suite fails (CI or not) naming it',
    () => {
      const run = runFixture({ KAFKA_BROKERS: '127.0.0.1:1' });

      expect(run.failed).toBe(1);
      expect(run.messages).toContain('Kafka at 127.0.0.1:1 (KAFKA_BROKERS) does not answer');
    },
    CHILD_JEST_MS,
  );
});

import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * deploy/prometheus/alerts.yml checked by Prometheus's own tool: the rules parse (promtool check rules), and
 * fire, or not, on the recorded samples of alerts.test.yml (promtool test rules) — among them the Kafka
 * consumer lag every replica reports. promtool comes with Debian's prometheus package (scripts/test-all
 * installs it); without it the suite says so in one line.
 */
const PROMETHEUS_DIR = resolve(__dirname, '../deploy/prometheus');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const available = !promtool.error && promtool.status === 0;
if (!available) process.stdout.write('[skipped] alert rules (promtool check/test rules): promtool not found; `apt-get install prometheus` provides it\n');

(available ? describe : describe.skip)('deploy/prometheus/alerts.yml under promtool', () => {
  const run = (...args: string[]) => spawnSync('promtool', args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });

  it('when promtool checks the rules, then every rule parses', () => {
    const result = run('check', 'rules', 'alerts.yml');

    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when promtool replays the recorded samples, then VaultlineConsumerLag fires once per group for a lag every replica reports, not for a rebalance bump, and VaultlineOutboxBacklog fires on a stuck outbox', () => {
    const result = run('test', 'rules', join(PROMETHEUS_DIR, 'alerts.test.yml'));

    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when a recorded sample would not fire the alert, then promtool reports the failure (the check can fail)', () => {
    const result = spawnSync('promtool', ['test', 'rules', '/dev/stdin'], {
      cwd: PROMETHEUS_DIR,
      encoding: 'utf8',
      input: `rule_files: [${join(PROMETHEUS_DIR, 'alerts.yml')}]\nevaluation_interval: 15s\ntests:\n  - interval: 15s\n    input_series:\n      - series: 'vaultline_bus_consumer_lag{service="vault",group="g",topic="t"}'\n        values: '10x60'\n    alert_rule_test:\n      - eval_time: 12m\n        alertname: VaultlineConsumerLag\n        exp_alerts:\n          - exp_labels: { severity: warning, service: vault, group: g, topic: t }\n`,
    });

    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('FAILED');
  });
});

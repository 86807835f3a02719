import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * deploy/prometheus/alerts.yml checked by Prometheus's own tool: the rules parse (promtool check rules), and
 * fire, or not, on the recorded samples of alerts.test.yml (promtool test rules) — several replicas reporting
 * the same store-wide figure, job names as Kubernetes and compose give them. Every alert is shown there both
 * firing and holding still. promtool comes with Debian's prometheus package (scripts/test-all installs it);
 * without it the suite says so in one line.
 */
const PROMETHEUS_DIR = resolve(__dirname, '../deploy/prometheus');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const available = !promtool.error && promtool.status === 0;
if (!available) process.stdout.write('[skipped] alert rules (promtool check/test rules): promtool not found; `apt-get install prometheus` provides it\n');

interface RuleTest {
  alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}

(available ? describe : describe.skip)('deploy/prometheus/alerts.yml under promtool', () => {
  const run = (...args: string[]) => spawnSync('promtool', args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
  const alerts = readFileSync(join(PROMETHEUS_DIR, 'alerts.yml'), 'utf8');
  const alertNames = [
    ...new Set(
      (parse(alerts, { merge: true }) as { groups: Array<{ rules: Array<{ alert: string }> }> }).groups.flatMap((group) =>
        group.rules.map((rule) => rule.alert),
      ),
    ),
  ];

  it('when promtool checks the rules, then every rule parses', () => {
    const result = run('check', 'rules', 'alerts.yml');

    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when promtool replays the recorded samples, then every alert fires where it must and holds still where it must not (multiple replicas, Kubernetes and compose job names)', () => {
    const result = run('test', 'rules', join(PROMETHEUS_DIR, 'alerts.test.yml'));

    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('when the alerts are listed, then alerts.test.yml shows each one firing at least once and silent at least once', () => {
    const cases = (parse(readFileSync(join(PROMETHEUS_DIR, 'alerts.test.yml'), 'utf8')) as { tests: RuleTest[] }).tests.flatMap(
      (test) => test.alert_rule_test ?? [],
    );
    const coverage = alertNames.map((alert) => ({
      alert,
      fires: cases.some((rule) => rule.alertname === alert && (rule.exp_alerts ?? []).length > 0),
      silent: cases.some((rule) => rule.alertname === alert && (rule.exp_alerts ?? []).length === 0),
    }));

    expect(alertNames).toHaveLength(10);
    expect(coverage.filter((entry) => !entry.fires || !entry.silent)).toEqual([]);
  });

  it('when the rules are the earlier ones (job="vaultline" only, the webhook backlog summed over replicas), then the recorded samples fail them (the tests catch what was wrong)', () => {
    const earlier = alerts
      .replace('up{service=~"gateway|vault|forwarder|importer|payment-orchestrator|notifier"} == 0', 'up{job="vaultline"} == 0')
      .replace('max by (namespace) (sum by (namespace, instance) (vaultline_webhook_backlog)) > 1000', 'sum (vaultline_webhook_backlog) > 1000');
    const dir = mkdtempSync(join(tmpdir(), 'vaultline-alerts-'));
    try {
      writeFileSync(join(dir, 'alerts.yml'), earlier);
      copyFileSync(join(PROMETHEUS_DIR, 'alerts.test.yml'), join(dir, 'alerts.test.yml'));
      const result = spawnSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: dir, encoding: 'utf8' });
      const failed = [...(result.stdout + result.stderr).matchAll(/alertname: (\w+), time: (\w+)/g)].map((match) => `${match[1]} at ${match[2]}`);

      expect(earlier).not.toBe(alerts);
      expect(result.status).not.toBe(0);
      expect(failed).toEqual(['VaultlineServiceDown at 3m', 'VaultlineWebhookBacklog at 16m']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METRIC } from './metric-names';

interface Dashboard {
  panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
}

describe('the Grafana dashboard (deploy/grafana/vaultline.json)', () => {
  const dashboard = JSON.parse(readFileSync(join(__dirname, '../../../deploy/grafana/vaultline.json'), 'utf8')) as Dashboard;
  const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  const used = new Set(expressions.flatMap((expr) => [...expr.matchAll(/vaultline_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ''))));
  const declared = new Set<string>(Object.values(METRIC));

  it('when a panel queries a vaultline metric, then the services declare it (or it is a process metric)', () => {
    const unknown = [...used].filter((name) => !declared.has(name) && !/^vaultline_(process|nodejs)_/.test(name));
    expect(unknown).toEqual([]);
  });

  it('when the services declare a metric, then some panel shows it', () => {
    expect([...declared].filter((name) => !used.has(name))).toEqual([]);
  });

  it("when a panel shows a figure every replica reports alike (consumer lag, outbox backlog, webhook backlog), then it takes one replica's (max), never the sum of replicas", () => {
    for (const metric of [METRIC.busConsumerLag, METRIC.outboxBacklog, METRIC.webhookBacklog]) {
      const reading = expressions.filter((expr) => expr.includes(metric));

      expect({ metric, reading: reading.length }).toEqual({ metric, reading: 1 });
      expect({ metric, expr: reading[0] }).toEqual({ metric, expr: expect.stringMatching(new RegExp(`max by \\([^)]*\\) \\(${metric}[{)]`)) });
    }
  });
});

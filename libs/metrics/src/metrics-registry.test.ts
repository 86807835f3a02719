import { MetricsRegistry } from './metrics-registry';
import { startMetricsServer } from './metrics-server';

describe('the metrics registry', () => {
  it('when two services count the same metric in one process, then there is one metric with a series per service', async () => {
    const registry = new MetricsRegistry();
    registry.forService('vault').counter('vaultline_things_total', 'Things.', ['kind']).inc({ kind: 'a' });
    registry.forService('notifier').counter('vaultline_things_total', 'Things.', ['kind']).inc({ kind: 'a' }, 2);

    const text = await registry.render();
    expect(text.match(/# TYPE vaultline_things_total counter/g)).toHaveLength(1);
    expect(text).toContain('vaultline_things_total{service="vault",kind="a"} 1');
    expect(text).toContain('vaultline_things_total{service="notifier",kind="a"} 2');
  });

  it('when a metric is declared again with other labels or without the vaultline_ prefix, then it throws', () => {
    const metrics = new MetricsRegistry().forService('vault');
    metrics.counter('vaultline_things_total', 'Things.', ['kind']);
    expect(() => metrics.counter('vaultline_things_total', 'Things.', ['other'])).toThrow('declared with labels service,kind');
    expect(() => metrics.counter('things_total', 'Things.')).toThrow('start with vaultline_');
  });

  it('when a scrape-time gauge is read, then every source is read afresh, a removed one disappears and a failing one is left out', async () => {
    const registry = new MetricsRegistry();
    let backlog = 3;
    const remove = registry.forService('vault').gauge('vaultline_backlog', 'Backlog.', [], () => [{ value: backlog }]);
    registry.forService('forwarder').gauge('vaultline_backlog', 'Backlog.', [], () => {
      throw new Error('store closed');
    });

    expect(await registry.render()).toContain('vaultline_backlog{service="vault"} 3');
    backlog = 5;
    expect(await registry.render()).toContain('vaultline_backlog{service="vault"} 5');
    expect(await registry.render()).not.toContain('service="forwarder"');
    remove();
    expect(await registry.render()).not.toContain('vaultline_backlog{service="vault"}');
  });

  it('when /metrics is scraped, then it serves the registry and the service threads summed in Prometheus text, and nothing else on the port', async () => {
    const main = new MetricsRegistry();
    const thread = new MetricsRegistry();
    main.forService('vault').counter('vaultline_requests_total', 'Requests.').inc();
    thread.forService('importer').counter('vaultline_requests_total', 'Requests.').inc({}, 4);
    const server = await startMetricsServer('127.0.0.1', 0, { registry: main, threads: () => [thread.toJson()] });
    try {
      const response = await fetch(server.url);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(text).toContain('vaultline_requests_total{service="vault"} 1');
      expect(text).toContain('vaultline_requests_total{service="importer"} 4');
      expect((await fetch(server.url.replace('/metrics', '/tokens'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

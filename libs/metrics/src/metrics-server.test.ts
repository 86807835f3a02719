import { MetricsRegistry } from './metrics-registry';
import { startMetricsServer } from './metrics-server';

describe('the metrics listener', () => {
  it('when probes are attached, then GET /health and /ready on the metrics port are answered by them (kubelets present no client certificate to the mutual-TLS API port), and other paths stay 404', async () => {
    const server = await startMetricsServer('127.0.0.1', 0, {
      registry: new MetricsRegistry(),
      probes: (req, res) => res.writeHead(req.url === '/ready' ? 503 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })),
    });
    const base = server.url.replace(/\/metrics$/, '');
    try {
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect(await (await fetch(`${base}/ready`)).json()).toEqual({ path: '/ready' });
      expect((await fetch(`${base}/tokens`)).status).toBe(404);
      expect((await fetch(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

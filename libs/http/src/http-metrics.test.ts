import express from 'express';
import { MetricsRegistry } from '@vaultline/metrics';
import { httpMetrics, setMetricsRoute } from './http-metrics';
import { startHttpServer } from './http-server';

describe('RED metrics per route', () => {
  it('when requests hit routes with ids, then they are counted by route pattern, method and status, never by raw path', async () => {
    const registry = new MetricsRegistry();
    const app = express();
    app.use(httpMetrics(registry.forService('vault')));
    const admin = express.Router();
    admin.get('/merchants/:id', (_req, res) => void res.json({}));
    app.use('/admin', admin);
    app.get('/tokens/:id', (req, res) => void res.status(req.params.id === 'tok_missing' ? 404 : 200).json({}));
    app.use('/edge', (_req, res) => {
      setMetricsRoute(res, '/edge*');
      res.status(503).end();
    });
    const server = await startHttpServer(app);
    try {
      for (const path of ['/tokens/tok_1', '/tokens/tok_2', '/tokens/tok_missing', '/admin/merchants/m_1', '/edge/x/y', '/nowhere/42'])
        await (await fetch(`${server.url}${path}`)).arrayBuffer();
    } finally {
      await server.close();
    }

    const text = await registry.render();
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="/tokens/:id",status="200"} 2');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="/tokens/:id",status="404"} 1');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="/admin/merchants/:id",status="200"} 1');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="/edge*",status="503"} 1');
    expect(text).toContain('vaultline_http_requests_total{service="vault",method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('vaultline_http_request_duration_seconds_count{service="vault",method="GET",route="/tokens/:id"} 3');
    expect(text).not.toMatch(/tok_1|m_1|nowhere/);
  });
});

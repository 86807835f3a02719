import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry';

/** Where a /metrics listener gets its series: this process's registry, and the JSON of each service thread. */
export interface MetricsSources {
  registry: MetricsRegistry;
  /** Service threads (embedded profile): their registries as JSON (MetricsRegistry.toJson). */
  threads?: () => Array<Promise<unknown[]>>;
  /**
   * GET /health and /ready, answered on this plain-HTTP port too: where the API port takes only mutual-TLS
   * clients, kubelets and container health checks (which present no client certificate) probe here.
   */
  probes?: RequestListener;
}

const PROBE_PATHS = new Set(['/health', '/ready']);

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on a listener of its own, never on the merchant port: Prometheus scrapes it on
 * METRICS_PORT, which a deployment exposes to the cluster only. With threads, their series are summed
 * into the process's (each thread's series carry their own service label, so nothing collides).
 */
export async function startMetricsServer(host: string, port: number, sources: MetricsSources): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (sources.probes && req.method === 'GET' && PROBE_PATHS.has((req.url ?? '').split('?')[0]!)) {
      sources.probes(req, res);
      return;
    }
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    renderAll(sources).then(
      (body) => res.writeHead(200, { 'content-type': sources.registry.contentType() }).end(body),
      (error: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    port: address.port,
    url: `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function renderAll(sources: MetricsSources): Promise<string> {
  const threads = sources.threads?.() ?? [];
  if (threads.length === 0) return sources.registry.render();
  const all = await Promise.all([sources.registry.toJson(), ...threads.map((json) => json.catch(() => []))]);
  return AggregatorRegistry.aggregate(all as object[]).metrics();
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';

const ROUTE_LOCAL = 'metricsRoute';

/**
 * Names the route of a request whose handler is not an express route (the gateway's edge resolves its
 * routes itself): the pattern, never the raw path, so ids do not become series.
 */
export function setMetricsRoute(res: Response, pattern: string): void {
  res.locals[ROUTE_LOCAL] = pattern;
}

/**
 * RED per route: vaultline_http_requests_total{method,route,status} and
 * vaultline_http_request_duration_seconds{method,route}, recorded when the response finished (or the
 * connection closed first: status "aborted"). The route is the express pattern (`/tokens/:id`) or what
 * setMetricsRoute named (`patternsOnly`: the pattern only); a request no route took is `unmatched`.
 */
export function httpMetrics(metrics: ServiceMetrics, options: { patternsOnly?: boolean } = {}): RequestHandler {
  const requests = metrics.counter(METRIC.httpRequests, 'HTTP requests answered, by route pattern and status.', ['method', 'route', 'status']);
  const duration = metrics.histogram(METRIC.httpRequestDuration, 'HTTP request duration in seconds, by route pattern.', ['method', 'route']);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const method = req.method;
    let recorded = false;
    const record = (status: string) => {
      if (recorded) return;
      recorded = true;
      // A service the gateway hands its request to in this process names its own routes, not the gateway's.
      const route = (options.patternsOnly ? undefined : (res.locals[ROUTE_LOCAL] as string | undefined)) ?? routeOf(req);
      requests.inc({ method, route, status });
      duration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', () => record(String(res.statusCode)));
    res.once('close', () => record(res.writableFinished ? String(res.statusCode) : 'aborted'));
    next();
  };
}

function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  return req.path === '/health' || req.path === '/ready' ? req.path : 'unmatched';
}

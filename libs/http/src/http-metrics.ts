import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';

const SLOTS_LOCAL = 'metricsRouteSlots';

/**
 * Where each httpMetrics middleware on a request's way keeps its route. In the embedded profile the
 * gateway hands its request and response to a service's app, so two middlewares see one `res` (and one
 * `req`, whose route the service's router overwrites): each has a slot of its own, the innermost last.
 */
interface RouteSlot {
  route?: string;
}

function slotsOf(res: Response): RouteSlot[] {
  const existing = res.locals[SLOTS_LOCAL] as RouteSlot[] | undefined;
  if (existing) return existing;
  const slots: RouteSlot[] = [];
  res.locals[SLOTS_LOCAL] = slots;
  return slots;
}

/**
 * Names the route of a request whose handler is not an express route (the gateway's edge resolves its
 * routes itself): the pattern, never the raw path, so ids do not become series.
 */
export function setMetricsRoute(res: Response, pattern: string): void {
  const top = slotsOf(res).at(-1);
  if (top) top.route = pattern;
}

/**
 * Fixes the route of the request as it stands (express route pattern), before the request is handed to
 * another app that will route it again (the gateway's in-process upstream).
 */
export function freezeMetricsRoute(req: Request, res: Response): void {
  const top = slotsOf(res).at(-1);
  if (top) top.route ??= routeOf(req);
}

/**
 * RED per route: vaultline_http_requests_total{method,route,status} and
 * vaultline_http_request_duration_seconds{method,route}, recorded when the response finished (or the
 * connection closed first: status "aborted"). The route is the express pattern (`/tokens/:id`) or what
 * setMetricsRoute named; a request no route took is `unmatched`.
 */
export function httpMetrics(metrics: ServiceMetrics): RequestHandler {
  const requests = metrics.counter(METRIC.httpRequests, 'HTTP requests answered, by route pattern and status.', ['method', 'route', 'status']);
  const duration = metrics.histogram(METRIC.httpRequestDuration, 'HTTP request duration in seconds, by route pattern.', ['method', 'route']);
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const slot: RouteSlot = {};
    slotsOf(res).push(slot);
    const method = req.method;
    let recorded = false;
    const record = (status: string) => {
      if (recorded) return;
      recorded = true;
      const route = slot.route ?? routeOf(req);
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

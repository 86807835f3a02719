import type { RequestListener } from 'node:http';

/**
 * The first steps of a SIGTERM: readiness fails at once, the service keeps serving for `delayMs` (the
 * time endpoints, load balancers and the gateway's callers need to stop sending it anything), then the
 * listeners drain. `/ready` of every listener wrapped by `gate` answers 503 `shutting_down` from the
 * moment `begin()` is called; every other route is served as before until the drain, each answer closing
 * its connection (a request sent on a keep-alive connection the drain closes at that instant would fail).
 */
export interface ShutdownGate {
  /** Wraps a listener's handler: /ready fails while shutting down, everything else passes. */
  gate(handler: RequestListener): RequestListener;
  readonly shuttingDown: boolean;
  /** Fails readiness, waits `delayMs` while serving, then runs `drain`. */
  begin(delayMs: number, drain: () => Promise<void>): Promise<void>;
}

export function shutdownGate(): ShutdownGate {
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    gate: (handler) => (req, res) => {
      if (shuttingDown && (req.url ?? '').split('?')[0] === '/ready') {
        res.writeHead(503, { 'content-type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            type: 'about:blank',
            title: 'Service Unavailable',
            status: 503,
            code: 'shutting_down',
            detail: 'The service is shutting down; it finishes what it was sent.',
          }),
        );
        return;
      }
      // Every answer from now on closes its connection: keep-alive clients open new ones (elsewhere, behind a
      // Service), so when the drain closes what is idle, no client is about to reuse one of them.
      if (shuttingDown) res.setHeader('connection', 'close');
      handler(req, res);
    },
    async begin(delayMs, drain) {
      shuttingDown = true;
      await serveFor(delayMs);
      await drain();
    },
  };
}

/**
 * Waits at least `delayMs` by the monotonic clock. A timer alone can fire a millisecond early: libuv
 * measures it from the loop time cached at the start of the iteration, which is already behind the moment
 * `begin()` was called.
 */
async function serveFor(delayMs: number): Promise<void> {
  const until = performance.now() + delayMs;
  for (let left = delayMs; left > 0; left = until - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}

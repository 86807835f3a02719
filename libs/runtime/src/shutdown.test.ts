import { listen } from './serve';
import { shutdownGate } from './shutdown';

describe('SIGTERM: fail readiness, keep serving for SHUTDOWN_DELAY_SECONDS, then drain', () => {
  it('when the shutdown begins, then /ready answers 503 shutting_down at once, other requests are served through the delay, and only then does the listener stop accepting', async () => {
    const listening = await listen('127.0.0.1', 0);
    const gate = shutdownGate();
    listening.handle(
      gate.gate((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }),
    );
    expect((await fetch(`${listening.url}/ready`)).status).toBe(200);

    const began = performance.now();
    let drainedAt = 0;
    const shutdown = gate.begin(1_000, async () => {
      await listening.drain();
      drainedAt = performance.now();
    });

    const ready = await fetch(`${listening.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 503, code: 'shutting_down' });
    const during: number[] = [];
    const connectionHeaders: Array<string | null> = [];
    for (let i = 0; i < 5; i++) {
      const answer = await fetch(`${listening.url}/tokens`);
      during.push(answer.status);
      connectionHeaders.push(answer.headers.get('connection'));
    }
    const servedUntil = performance.now();
    await shutdown;

    expect(during).toEqual([200, 200, 200, 200, 200]);
    expect(connectionHeaders).toEqual(['close', 'close', 'close', 'close', 'close']);
    expect(servedUntil).toBeLessThan(drainedAt);
    expect(drainedAt - began).toBeGreaterThanOrEqual(1_000);
    await expect(fetch(`${listening.url}/tokens`)).rejects.toThrow();
  });
});

/**
 * Sessions reach the vault by event (checkout.session.opened) a moment after the merchant has the
 * session id and may already have sent the consumer to the page. A status read for a session that
 * has not arrived yet waits here briefly instead of answering 404 at once, so the page's first read
 * usually succeeds and it does not have to come back (each read is a full request through the gateway).
 *
 * Arrivals are announced in-process when this instance stores a session; another instance may store it
 * instead (several vault replicas share one consumer group), so a waiter also looks again every
 * `recheckMs` and never waits longer than its bound.
 */
export class SessionArrivals {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** The session is stored (after its commit): wake whoever waits for it. */
  announce(sessionId: string): void {
    const waiting = this.waiters.get(sessionId);
    if (!waiting) return;
    this.waiters.delete(sessionId);
    for (const wake of waiting) wake();
  }

  /** Resolves when the session is announced or after `ms`, whichever comes first. */
  nextChance(sessionId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(sessionId) ?? new Set<() => void>();
      const wake = (): void => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && this.waiters.get(sessionId) === waiting) this.waiters.delete(sessionId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
      this.waiters.set(sessionId, waiting);
    });
  }
}

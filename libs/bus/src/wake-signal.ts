/**
 * Wakes one waiting loop. A notify with nobody waiting is remembered, so a publish that lands
 * between "read found nothing" and "wait" is not missed.
 */
export class WakeSignal {
  private pending = false;
  private wake: (() => void) | undefined;

  notify(): void {
    const wake = this.wake;
    if (wake) {
      this.wake = undefined;
      wake();
    } else {
      this.pending = true;
    }
  }

  /** Resolves on notify, or after `timeoutMs` (the slow fallback poll). */
  wait(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.wake = done;
    });
  }
}

/**
 * Resolves in the event loop's check phase: a background loop (relay, consumer) woken by a commit
 * lets the I/O callbacks already due (requests waiting on that commit) run first, and finds the
 * commits made meanwhile in the same batch.
 */
export function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` returns a truthy value or the time runs out. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5_000, intervalMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/**
 * Waits `ms`; when `signal` aborts, the wait ends at once and normally. For loops that back off
 * between attempts and check their own stop flag afterwards: a stopping loop must not wait out its
 * backoff, and it has nothing to unwind.
 */
export function sleepEndingOnAbort(ms: number, signal: AbortSignal): Promise<void> {
  return abortableWait(ms, signal, null);
}

/**
 * Waits `ms`; when `signal` aborts, rejects at once with `interrupted()`. For work that must stop
 * where it stands (unwinding to a checkpoint) rather than carry on as if the time had passed.
 */
export function sleepFailingOnAbort(ms: number, signal: AbortSignal, interrupted: () => Error): Promise<void> {
  return abortableWait(ms, signal, interrupted);
}

function abortableWait(ms: number, signal: AbortSignal, interrupted: (() => Error) | null): Promise<void> {
  const onAborted = (resolve: () => void, reject: (error: Error) => void) => (interrupted ? reject(interrupted()) : resolve());
  if (signal.aborted) return new Promise(onAborted);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort(): void {
      clearTimeout(timer);
      onAborted(resolve, reject);
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

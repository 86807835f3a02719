import { context, propagation, type Context } from '@opentelemetry/api';

/** Writes the active trace context (traceparent, tracestate, baggage) into message headers. */
export function injectTraceContext(headers: Record<string, string> = {}): Record<string, string> {
  propagation.inject(context.active(), headers);
  return headers;
}

/** The context carried by message headers, to run a consumer's work in (context.with). */
export function extractTraceContext(headers: Record<string, string | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/**
 * The trace context work was handed over in, kept by key until the work runs: for work queued by one
 * task and done by another (the notifier's consumer queues a webhook, its delivery worker sends it),
 * which AsyncLocalStorage cannot follow. Bounded: the oldest keys go first, and work whose context
 * was dropped (or was queued by another process) runs in its own trace.
 */
export class HandedOverContexts {
  private readonly contexts = new Map<string, Context>();

  constructor(private readonly capacity = 10_000) {}

  /** Remembers the active context for each key. */
  remember(keys: Iterable<string>): void {
    const active = context.active();
    for (const key of keys) {
      this.contexts.delete(key);
      this.contexts.set(key, active);
      if (this.contexts.size > this.capacity) this.contexts.delete(this.contexts.keys().next().value as string);
    }
  }

  /** Runs `work` in the context remembered for `key` (once: the key is forgotten), else in the active one. */
  runIn<T>(key: string, work: () => T): T {
    const handedOver = this.contexts.get(key);
    if (!handedOver) return work();
    this.contexts.delete(key);
    return context.with(handedOver, work);
  }
}

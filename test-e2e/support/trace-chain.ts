/** A finished span as both profiles' tests collect it (in-memory exporter, or OTLP/HTTP JSON). */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** SERVER, CLIENT, PRODUCER, CONSUMER or INTERNAL. */
  kind: string;
  /** The service.name of the process that recorded it. */
  service: string;
}

/**
 * The spans from the root of the trace down to `leaf`, root first. Throws when a parent is missing
 * (the chain is broken) or a span of another trace is on the way.
 */
export function ancestry(spans: CollectedSpan[], leaf: CollectedSpan): CollectedSpan[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const chain: CollectedSpan[] = [leaf];
  for (let span = leaf; span.parentSpanId;) {
    const parent = byId.get(span.parentSpanId);
    if (!parent) throw new Error(`the chain breaks above "${span.name}" (${span.service}): no span ${span.parentSpanId} among ${spans.length} collected`);
    if (parent.traceId !== leaf.traceId) throw new Error(`"${parent.name}" is of another trace`);
    chain.unshift(parent);
    span = parent;
  }
  return chain;
}

/** Where each expected step sits in the chain (-1 when absent): the test expects them present and in order. */
export function positionsIn(chain: CollectedSpan[], steps: Array<(span: CollectedSpan) => boolean>): number[] {
  return steps.map((step) => chain.findIndex(step));
}

/** The chain as one readable line, for failure messages. */
export function describeChain(chain: CollectedSpan[]): string {
  return chain.map((span) => `${span.service}:${span.kind}:${span.name}`).join(' → ');
}

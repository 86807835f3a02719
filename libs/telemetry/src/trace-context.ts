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

import { context, propagation, SpanKind, trace as otel } from '@opentelemetry/api';
import type { EventToPublish, OutboxMessage } from './store.port';

/** Headers every event's bus message carries beside the trace context: consumers route on them without parsing. */
export const EVENT_HEADERS = { type: 'event-type', id: 'event-id' } as const;

const tracer = otel.getTracer('@vaultline/store');

/**
 * The outbox message of one event, with the active W3C trace context in its headers and in
 * envelope.trace so the consumer's span continues this trace. The context carried is a
 * `publish <type>` producer span's, a child of the active span (the request or consumer that changed
 * the state): the messaging convention's send span. The event is handed to the outbox here, in the
 * unit of work, and reaches the bus later through the relay, so the span is as long as the hand-over,
 * not the relay's wait.
 */
export function outboxMessageOf(event: EventToPublish): OutboxMessage {
  const carrier: Record<string, string> = {};
  const publish = tracer.startSpan(`publish ${event.envelope.type}`, {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'vaultline-bus', 'messaging.operation.type': 'send', 'messaging.destination.name': event.topic },
  });
  propagation.inject(otel.setSpan(context.active(), publish), carrier);
  publish.end();
  const trace = {
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
  const { data, ...head } = event.envelope;
  const envelope = { ...head, ...(trace.traceparent ? { trace } : {}), data };
  return {
    topic: event.topic,
    key: event.key,
    value: JSON.stringify(envelope),
    headers: { ...carrier, [EVENT_HEADERS.type]: event.envelope.type, [EVENT_HEADERS.id]: event.envelope.id },
  };
}

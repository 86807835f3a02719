import { context, propagation, SpanKind, trace as otel } from '@opentelemetry/api';
import { createEnvelope, type AnyEventDefinition, type EventData, type TraceContext } from '@vaultline/contracts';
import type { OutboxMessage } from '@vaultline/store';
import type { Scope } from '@vaultline/core';

export const EVENT_HEADERS = { type: 'event-type', id: 'event-id' } as const;

export interface EventMessageInput<D extends AnyEventDefinition> {
  /** Whose event, in which mode (the resource's own). */
  scope: Scope;
  data: EventData<D>;
  occurredAt?: Date;
  id?: string;
}

const tracer = otel.getTracer('@vaultline/bus');

/**
 * Builds the outbox message of one event: a validated envelope (createEnvelope throws when the
 * data breaks the contract), keyed by the aggregate id, with the active W3C trace context in
 * the headers and in envelope.trace so the consumer's span continues this trace. The context carried is
 * a `publish <type>` producer span's, a child of the active span (the request that changed the state):
 * the messaging convention's send span. The event is handed to the outbox here, in the unit of work, and
 * reaches the bus later through the relay, so the span is as long as the hand-over, not the relay's wait.
 */
export function eventMessage<D extends AnyEventDefinition>(definition: D, input: EventMessageInput<D>): OutboxMessage {
  const carrier: Record<string, string> = {};
  const publish = tracer.startSpan(`publish ${definition.type}`, {
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': 'vaultline-bus', 'messaging.operation.type': 'send', 'messaging.destination.name': definition.topic },
  });
  propagation.inject(otel.setSpan(context.active(), publish), carrier);
  publish.end();
  const trace: TraceContext = {
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
  const envelope = createEnvelope(definition, {
    scope: input.scope,
    data: input.data,
    occurredAt: input.occurredAt,
    id: input.id,
    ...(trace.traceparent ? { trace } : {}),
  });
  return {
    topic: definition.topic,
    key: (definition.keyOf as (data: EventData<D>) => string)(envelope.data),
    value: JSON.stringify(envelope),
    headers: { ...carrier, [EVENT_HEADERS.type]: envelope.type, [EVENT_HEADERS.id]: envelope.id },
  };
}

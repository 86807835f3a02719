import { context, propagation } from '@opentelemetry/api';
import { createEnvelope, type AnyEventDefinition, type EventData, type TraceContext } from '@vaultline/contracts';
import type { OutboxMessage } from '@vaultline/store';

export const EVENT_HEADERS = { type: 'event-type', id: 'event-id' } as const;

export interface EventMessageInput<D extends AnyEventDefinition> {
  merchantId: string;
  data: EventData<D>;
  occurredAt?: Date;
  id?: string;
}

/**
 * Builds the outbox message of one event: a validated envelope (createEnvelope throws when the
 * data breaks the contract), keyed by the aggregate id, with the active W3C trace context in
 * the headers and in envelope.trace so the consumer's span continues this trace.
 */
export function eventMessage<D extends AnyEventDefinition>(definition: D, input: EventMessageInput<D>): OutboxMessage {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const trace: TraceContext = {
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
  const envelope = createEnvelope(definition, {
    merchantId: input.merchantId,
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

import { z } from 'zod';
import { newId, type Scope } from '@vaultline/core';

/** W3C trace context carried with every event so spans continue across the bus. */
export const traceContextSchema = z.object({
  traceparent: z.string().optional(),
  tracestate: z.string().optional(),
});

export const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurred_at: z.string().datetime({ offset: false }),
  merchant_id: z.string().min(1),
  /** The mode of the resource the event is about; events published before modes existed were test events. */
  livemode: z.boolean().default(false),
  trace: traceContextSchema.optional(),
  data: z.unknown(),
});

export type TraceContext = z.infer<typeof traceContextSchema>;

export interface EventEnvelope<TData = unknown, TType extends string = string> {
  id: string;
  type: TType;
  version: number;
  occurred_at: string;
  merchant_id: string;
  /** True when the event is about a live-mode resource (a live key's): test and live never mix. */
  livemode: boolean;
  trace?: TraceContext;
  data: TData;
}

/** The merchant and mode an event belongs to: what its consumers scope their reads and writes by. */
export function scopeOfEvent(envelope: Pick<EventEnvelope, 'merchant_id' | 'livemode'>): Scope {
  return { merchantId: envelope.merchant_id, mode: envelope.livemode ? 'live' : 'test' };
}

/**
 * One event contract: declared once, used by the publisher and validated by every consumer.
 * Within a version only fields are added; a breaking change is a new version.
 */
export interface EventDefinition<TType extends string, TSchema extends z.ZodType> {
  type: TType;
  version: number;
  topic: string;
  schema: TSchema;
  /** The aggregate id: the message key, so one aggregate's events stay in order. */
  keyOf: (data: z.infer<TSchema>) => string;
  description: string;
}

export function defineEvent<TType extends string, TSchema extends z.ZodType>(definition: EventDefinition<TType, TSchema>): EventDefinition<TType, TSchema> {
  return definition;
}

export type EventData<D> = D extends EventDefinition<string, infer S> ? z.infer<S> : never;

export interface EnvelopeInput<D extends EventDefinition<string, z.ZodType>> {
  /** Whose event, in which mode. */
  scope: Scope;
  data: EventData<D>;
  occurredAt?: Date;
  trace?: TraceContext;
  id?: string;
}

/** Builds a validated envelope; throws when data does not match the contract. */
export function createEnvelope<D extends EventDefinition<string, z.ZodType>>(definition: D, input: EnvelopeInput<D>): EventEnvelope<EventData<D>, D['type']> {
  const data = definition.schema.parse(input.data) as EventData<D>;
  return {
    id: input.id ?? newId(),
    type: definition.type,
    version: definition.version,
    occurred_at: (input.occurredAt ?? new Date()).toISOString(),
    merchant_id: input.scope.merchantId,
    livemode: input.scope.mode === 'live',
    ...(input.trace ? { trace: input.trace } : {}),
    data,
  };
}

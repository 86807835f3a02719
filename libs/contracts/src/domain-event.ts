import type { Scope } from '@vaultline/core';
import { createEnvelope, type EventData, type EventEnvelope } from './envelope';
import type { AnyEventDefinition } from './events/catalog';

export interface DomainEventInput<D extends AnyEventDefinition> {
  /** Whose event, in which mode (the resource's own). */
  scope: Scope;
  data: EventData<D>;
  occurredAt?: Date;
  id?: string;
}

/**
 * One event as domain code builds it, by a pure mapper from the aggregate: the validated envelope, its
 * topic and its key (the aggregate id, so one aggregate's events stay in order). The trace context is
 * not the domain's business: the unit of work adds it when the event is published (`uow.publish`,
 * libs/store), and with it hands the event to the outbox.
 */
export interface DomainEvent {
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

/** Builds one event of `definition`; throws when the data breaks the contract. */
export function domainEvent<D extends AnyEventDefinition>(definition: D, input: DomainEventInput<D>): DomainEvent {
  const envelope = createEnvelope(definition, input);
  return { topic: definition.topic, key: (definition.keyOf as (data: EventData<D>) => string)(envelope.data), envelope };
}

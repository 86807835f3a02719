import { domainEvent, type AnyEventDefinition, type DomainEventInput } from '@vaultline/contracts';
import { outboxMessageOf, type OutboxMessage } from '@vaultline/store';

export type EventMessageInput<D extends AnyEventDefinition> = DomainEventInput<D>;

/**
 * The bus message of one event, traced, for code that publishes straight to a bus (tests, benchmarks):
 * the event as domain code builds it (domainEvent) with the trace context the unit of work would add
 * (outboxMessageOf). Domain code builds `domainEvent`s and publishes them with `uow.publish`.
 */
export function eventMessage<D extends AnyEventDefinition>(definition: D, input: EventMessageInput<D>): OutboxMessage {
  return outboxMessageOf(domainEvent(definition, input));
}

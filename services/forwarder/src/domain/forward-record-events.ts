import { forwardCompletedV1, domainEvent, type DomainEvent } from '@vaultline/contracts';
import type { ForwardRecord } from './forward-record';

/** forward.completed: where and how it went, never card data or credentials. */
export function forwardCompletedEvent(record: ForwardRecord): DomainEvent {
  return domainEvent(forwardCompletedV1, {
    scope: record.scope,
    data: {
      forward_id: record.id,
      token_id: record.tokenId,
      destination_host: record.destinationHost,
      destination_path: record.destinationPath,
      status: record.status,
      outcome: record.outcome,
      duration_ms: record.durationMs,
      added_ms: record.addedMs,
    },
  });
}

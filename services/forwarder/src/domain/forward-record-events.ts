import { eventMessage } from '@vaultline/bus';
import { forwardCompletedV1 } from '@vaultline/contracts';
import type { OutboxMessage } from '@vaultline/store';
import type { ForwardRecord } from './forward-record';

/** forward.completed: where and how it went, never card data or credentials. */
export function forwardCompletedEvent(record: ForwardRecord): OutboxMessage {
  return eventMessage(forwardCompletedV1, {
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

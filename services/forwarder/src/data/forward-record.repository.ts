import type { DocumentStore, StoredDocument } from '@vaultline/store';
import { eventMessage } from '@vaultline/bus';
import { forwardCompletedV1 } from '@vaultline/contracts';
import type { ForwardRecord, ForwardRecorder } from '../domain/forward-record';
import { FORWARDS } from './collections';

export interface ForwardDocument extends StoredDocument {
  token_id: string;
  destination_host: string;
  destination_path: string;
  status: number | null;
  outcome: ForwardRecord['outcome'];
  error_code: string | null;
  duration_ms: number;
  added_ms: number;
  created_at: string;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** Writes the audit record and its forward.completed event in one unit of work. */
export function createForwardRecorder(store: DocumentStore): ForwardRecorder & {
  get(merchantId: string, id: string): Promise<ForwardDocument | null>;
  listByToken(merchantId: string, tokenId: string): Promise<ForwardDocument[]>;
} {
  const collection = () => store.collection<ForwardDocument>(FORWARDS);
  return {
    async record(record: ForwardRecord): Promise<void> {
      await store.transaction((uow) => {
        uow.insert<ForwardDocument>(FORWARDS, {
          id: record.id,
          merchant_id: record.merchantId,
          token_id: record.tokenId,
          destination_host: record.destinationHost,
          destination_path: record.destinationPath,
          status: record.status,
          outcome: record.outcome,
          error_code: record.errorCode,
          duration_ms: round(record.durationMs),
          added_ms: round(record.addedMs),
          created_at: record.createdAt,
        });
        uow.publish(
          eventMessage(forwardCompletedV1, {
            merchantId: record.merchantId,
            data: {
              forward_id: record.id,
              token_id: record.tokenId,
              destination_host: record.destinationHost,
              destination_path: record.destinationPath,
              status: record.status,
              outcome: record.outcome,
              duration_ms: round(record.durationMs),
              added_ms: round(record.addedMs),
            },
          }),
        );
      });
    },
    get: (merchantId, id) => collection().get(merchantId, id),
    async listByToken(merchantId, tokenId) {
      return (await collection().list(merchantId, { token_id: tokenId }, { limit: 100 })).items;
    },
  };
}

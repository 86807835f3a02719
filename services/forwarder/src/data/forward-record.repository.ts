import type { ScopedDocument, UnitOfWork } from '@vaultline/store';
import type { ForwardRecord } from '../domain/forward-record';
import type { ForwardRecordRepository } from '../domain/ports';
import { FORWARDS } from './collections';

export interface ForwardDocument extends ScopedDocument {
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

export class StoreForwardRecordRepository implements ForwardRecordRepository {
  insert(uow: UnitOfWork, record: ForwardRecord): void {
    uow.insert<ForwardDocument>(FORWARDS, {
      id: record.id,
      merchant_id: record.scope.merchantId,
      mode: record.scope.mode,
      token_id: record.tokenId,
      destination_host: record.destinationHost,
      destination_path: record.destinationPath,
      status: record.status,
      outcome: record.outcome,
      error_code: record.errorCode,
      duration_ms: record.durationMs,
      added_ms: record.addedMs,
      created_at: record.createdAt,
    });
  }
}

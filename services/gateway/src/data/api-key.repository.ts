import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument, type UnitOfWork } from '@vaultline/store';
import { NotFoundError } from '@vaultline/core';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository, PageOf, PageRequest } from '../domain/ports';
import { API_KEYS, API_KEY_HASHES } from './collections';

export type ApiKeyDocument = StoredDocument & ApiKeyRecord;
interface HashDocument extends StoredDocument {
  key_hash: string;
  owner_merchant_id: string;
}

const toRecord = ({ version: _version, ...record }: ApiKeyDocument): ApiKeyRecord => record;

/** Writes a key and its hash index entry in the caller's unit of work. */
export function insertKey(uow: UnitOfWork, key: ApiKeyRecord): void {
  uow.insert<ApiKeyDocument>(API_KEYS, key);
  uow.insert<HashDocument>(API_KEY_HASHES, { id: key.id, merchant_id: SYSTEM_SCOPE, key_hash: key.key_hash, owner_merchant_id: key.merchant_id });
}

export class StoreApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: DocumentStore) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.store.transaction((uow) => insertKey(uow, key));
  }

  async get(merchantId: string, id: string): Promise<ApiKeyRecord | null> {
    const doc = await this.store.collection<ApiKeyDocument>(API_KEYS).get(merchantId, id);
    return doc ? toRecord(doc) : null;
  }

  async list(merchantId: string, page: PageRequest): Promise<PageOf<ApiKeyRecord>> {
    const result = await this.store.collection<ApiKeyDocument>(API_KEYS).list(merchantId, {}, page);
    return { ...result, items: result.items.map(toRecord) };
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const entry = await this.store.collection<HashDocument>(API_KEY_HASHES).findOne(SYSTEM_SCOPE, { key_hash: keyHash });
    return entry ? this.get(entry.owner_merchant_id, entry.id) : null;
  }

  async revoke(merchantId: string, id: string, at: string): Promise<ApiKeyRecord> {
    const doc = await this.store.collection<ApiKeyDocument>(API_KEYS).get(merchantId, id);
    if (!doc) throw new NotFoundError('api_key');
    const updated = await this.store.transaction((uow) => uow.update<ApiKeyDocument>(API_KEYS, { ...doc, revoked_at: at }));
    return toRecord(updated);
  }
}

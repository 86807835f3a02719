import type { DocumentStore, StoredDocument, UnitOfWork } from '@vaultline/store';
import { NotFoundError } from '@vaultline/core';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository, PageOf, PageRequest } from '../domain/ports';
import { API_KEYS } from './collections';

export type ApiKeyDocument = StoredDocument & ApiKeyRecord;

const toRecord = ({ version: _version, ...record }: ApiKeyDocument): ApiKeyRecord => record;

/** Writes a key in the caller's unit of work (a merchant and its first key commit together). */
export function insertKey(uow: UnitOfWork, key: ApiKeyRecord): void {
  uow.insert<ApiKeyDocument>(API_KEYS, key);
}

export class StoreApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: DocumentStore) {}

  private get keys() {
    return this.store.collection<ApiKeyDocument>(API_KEYS);
  }

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.store.transaction((uow) => insertKey(uow, key));
  }

  async get(merchantId: string, id: string): Promise<ApiKeyRecord | null> {
    const doc = await this.keys.get(merchantId, id);
    return doc ? toRecord(doc) : null;
  }

  async list(merchantId: string, page: PageRequest): Promise<PageOf<ApiKeyRecord>> {
    const result = await this.keys.list(merchantId, {}, page);
    return { ...result, items: result.items.map(toRecord) };
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.keys.findGlobal({ key_hash: keyHash });
    return doc ? toRecord(doc) : null;
  }

  async revoke(merchantId: string, id: string, at: string): Promise<ApiKeyRecord> {
    const doc = await this.keys.get(merchantId, id);
    if (!doc) throw new NotFoundError('api_key');
    const updated = await this.store.transaction((uow) => uow.update<ApiKeyDocument>(API_KEYS, { ...doc, revoked_at: at }));
    return toRecord(updated);
  }
}
